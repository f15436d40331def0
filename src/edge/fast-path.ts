/**
 * The hot path: GET and HEAD of `/<alias>` are answered straight from the HTTP server's request
 * event, without the web framework's routing, hooks and reply objects. The engine makes every
 * decision, as it does for the framework route; this file only reads the request, writes the
 * outcome and renders its page when it is one (a redirect renders nothing). Everything else
 * (the API, forms, other paths) goes on to the framework: this is the one path outside it
 * (docs/adr/0002-redirect-outside-the-framework.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ClickRecorder } from '../clicks/recorder.js'
import { isDatabaseUnavailable } from '../db/errors.js'
import { isReservedAlias } from '../links/field-rules.js'
import { errorPage } from '../pages/index.js'
import { renderVisitPage } from './visit-pages.js'
import type { RedirectEngine, Visit, VisitInput } from '../redirects/engine.js'
import type { AddressOf } from './client.js'
import { NO_METRICS, type Metrics } from '../shared/metrics.js'
import { visitOutcome } from './visit-outcome.js'

/** One path segment of alias characters, optionally ending in `+` (the preview). */
const ALIAS_PATH = /^\/[A-Za-z0-9_-]{1,255}\+?$/

export type Listener = (request: IncomingMessage, response: ServerResponse) => void

export function writeVisit(response: ServerResponse, visit: Visit, head: boolean): void {
  const { outcome } = visit
  if (outcome.kind === 'redirect') {
    const headers: Record<string, string> = {
      location: outcome.location,
      'cache-control': 'no-store',
      'content-length': '0',
    }
    if (outcome.setCookie) headers['set-cookie'] = outcome.setCookie
    response.writeHead(outcome.status, headers)
    response.end()
    return
  }
  const rendered = renderVisitPage(outcome.page)
  const headers: Record<string, string> = { ...rendered.headers }
  if (outcome.setCookie) headers['set-cookie'] = outcome.setCookie
  if (outcome.retryAfter !== undefined) headers['retry-after'] = String(outcome.retryAfter)
  headers['content-length'] = String(Buffer.byteLength(rendered.html))
  response.writeHead(outcome.status, headers)
  response.end(head ? undefined : rendered.html)
}

function fail(response: ServerResponse, error: unknown, log: (error: unknown) => void): void {
  log(error)
  if (response.headersSent) {
    response.destroy()
    return
  }
  const status = isDatabaseUnavailable(error) ? 503 : 500
  const page = errorPage(status)
  response.writeHead(
    status,
    status === 503 ? { ...page.headers, 'retry-after': '5' } : page.headers,
  )
  response.end(page.html)
}

export function fastPath(
  engine: RedirectEngine,
  recorder: ClickRecorder,
  addressOf: AddressOf,
  next: Listener,
  hostnameOf: (request: IncomingMessage) => string,
  log: (error: unknown) => void,
  metrics: Metrics = NO_METRICS,
): Listener {
  const counted = metrics !== NO_METRICS
  const answer = (response: ServerResponse, visit: Visit, head: boolean, started: number) => {
    writeVisit(response, visit, head)
    if (counted) metrics.visit(visitOutcome(visit, head), (performance.now() - started) / 1000)
  }
  const finish = (response: ServerResponse, visit: Visit, head: boolean, started: number) => {
    if (visit.click !== null && recorder.full) {
      // The writer is behind by its bound: this visit is answered when there is room, so the
      // click is kept, not dropped, and memory stays bounded (see ClickRecorder).
      const click = visit.click
      void recorder.room().then(() => {
        answer(response, visit, head, started)
        recorder.record(click)
      })
      return
    }
    answer(response, visit, head, started)
    if (visit.click !== null) recorder.record(visit.click)
  }
  const failed = (response: ServerResponse, error: unknown, started: number) => {
    fail(response, error, log)
    if (counted) metrics.visit('error', (performance.now() - started) / 1000)
  }
  return (request, response) => {
    const method = request.method ?? ''
    const url = request.url ?? ''
    const at = url.indexOf('?')
    const path = at === -1 ? url : url.slice(0, at)
    // The service's own top-level paths (`/health`, …) are reserved words: never an alias.
    const alias =
      (method === 'GET' || method === 'HEAD') && ALIAS_PATH.test(path) ? path.slice(1) : ''
    if (alias === '' || isReservedAlias(alias)) return next(request, response)
    const headers = request.headers
    const input: VisitInput = {
      method,
      hostname: hostnameOf(request),
      alias,
      query: at === -1 ? '' : url.slice(at + 1),
      ip: addressOf(request),
      userAgent: headers['user-agent'],
      acceptLanguage: headers['accept-language'],
      referer: headers.referer,
      cookie: headers.cookie,
    }
    const head = method === 'HEAD'
    const started = counted ? performance.now() : 0
    try {
      const visit = engine.visit(input)
      if (visit instanceof Promise) {
        visit.then(
          (done) => finish(response, done, head, started),
          (error: unknown) => failed(response, error, started),
        )
      } else {
        finish(response, visit, head, started)
      }
    } catch (error) {
      failed(response, error, started)
    }
  }
}
