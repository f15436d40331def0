/** What the engine decided: a redirect, or a page with its status. routes.ts sends either. */
import type { RenderedPage } from '../pages/index.js'

export type Outcome =
  | { kind: 'redirect'; status: number; location: string; setCookie?: string }
  | { kind: 'page'; status: number; page: RenderedPage; retryAfter?: number; setCookie?: string }

export function redirect(status: number, location: string): Outcome {
  return { kind: 'redirect', status, location }
}

export function page(status: number, rendered: RenderedPage, retryAfter?: number): Outcome {
  return retryAfter === undefined
    ? { kind: 'page', status, page: rendered }
    : { kind: 'page', status, page: rendered, retryAfter }
}

/** A path with the request's query string kept. */
export function withQuery(path: string, query: string): string {
  return query ? `${path}?${query}` : path
}
