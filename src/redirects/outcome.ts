/**
 * What the engine decided, as data: a redirect, or which page to show with the facts it needs.
 * The engine never renders; the HTTP edge (src/edge/) turns a page's facts into HTML, so the
 * redirect rules stay free of markup and a plain redirect costs no page at all.
 */
import type { PixelType } from '../pixels/types.js'

/** The link's password form, or the statistics' password form (`kind: 'stats'`). */
export interface PasswordFacts {
  page: 'password'
  kind: 'link' | 'stats'
  alias: string
  /** Where the form posts again (path and query of the visit). */
  formAction: string
  /** Set when the last attempt was wrong. */
  error?: string
}

export interface PreviewFacts {
  page: 'preview'
  shortUrl: string
  destination: string
  title: string | null
  /** The expiry instant, formatted (ISO 8601 with microseconds). */
  endsAt: string | null
  expirationClicks: number | null
  clicks: number
  /** The rules of the link's targeting type, or null when it has none. */
  targeting: { type: string; entries: { key?: string; value: string; weight?: number }[] } | null
  /** The redirect rules in order, each its conditions in words and its URL. */
  rules: { when: string; url: string }[]
  statsUrl: string | null
  protected: boolean
}

/** The Open Graph page a link-preview fetcher is shown for a link with a social preview. */
export interface SocialFacts {
  page: 'social'
  shortUrl: string
  title: string
  description: string | null
  image: string | null
  /** The destination, for a person who lands there; null for a password link (never shown). */
  destination: string | null
}

export interface PixelFacts {
  page: 'pixels'
  /** The destination with the visit's query merged in. */
  destination: string
  pixels: { type: PixelType; value: string }[]
  /** Ask before loading the pixels (PIXEL_CONSENT). */
  consent: boolean
}

/** Every page a visit can end on. */
export type VisitPage =
  | { page: 'not-found' }
  | { page: 'disabled' }
  | { page: 'expired' }
  | { page: 'stats-private' }
  | { page: 'too-many-attempts'; reason: 'passwords' | 'lookups'; retryAfterSeconds: number }
  | PasswordFacts
  | PreviewFacts
  | SocialFacts
  | PixelFacts

/**
 * An answer whose page is `P`: the engine's pages (`VisitPage`), or another edge's own (the
 * stats page adds its pages to these).
 */
export type Answer<P> =
  | {
      kind: 'redirect'
      status: number
      location: string
      setCookie?: string
      /** Why a visitor is sent elsewhere than the link's destination: its expiry or a missing link. */
      instead?: 'expired' | 'not_found'
    }
  | { kind: 'page'; status: number; page: P; retryAfter?: number; setCookie?: string }

export type Outcome = Answer<VisitPage>

export function redirect(
  status: number,
  location: string,
  instead?: 'expired' | 'not_found',
): Answer<never> {
  return instead === undefined
    ? { kind: 'redirect', status, location }
    : { kind: 'redirect', status, location, instead }
}

export function page<P>(status: number, facts: P, retryAfter?: number): Answer<P> {
  return retryAfter === undefined
    ? { kind: 'page', status, page: facts }
    : { kind: 'page', status, page: facts, retryAfter }
}

/** The 429 of too many attempts, with its Retry-After. */
export function tooManyAttempts(
  reason: 'passwords' | 'lookups',
  retryAfterSeconds: number,
): Outcome {
  return page(429, { page: 'too-many-attempts', reason, retryAfterSeconds }, retryAfterSeconds)
}

/** A path with the request's query string kept. */
export function withQuery(path: string, query: string): string {
  return query ? `${path}?${query}` : path
}
