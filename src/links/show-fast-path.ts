/**
 * The API's hottest read, `GET /api/v1/links/{id}`, answered from the HTTP server's request event
 * without the web framework's routing, hooks and reply objects (as short links are, see
 * edge/fast-path.ts). It calls what the framework route calls (the key check, the per-key limit's
 * counter, the link service) and serialises with the route's own response schema, so the answer
 * is the same byte for byte (test/http/show-fast-path.test.ts compares them).
 *
 * Only the plain success is answered here. Anything else (another path, a query string, a body,
 * no key or an unknown one, a link that is not the key's) goes on to the framework before
 * anything is counted, so every error keeps its one place: http/error-handler.ts. Once the
 * request has been counted against the limit it is answered here, an error included, so that no
 * request is counted twice.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import fastJsonStringify from 'fast-json-stringify'
import type { Listener } from '../edge/fast-path.js'
import { authenticateKey, bearerTokenOf } from '../http/auth.js'
import { hasBody } from '../http/body.js'
import { toResponse } from '../http/error-handler.js'
import { API_LIMIT_WINDOW_MS, apiLimitKey } from '../limits/rate-limit-store.js'
import type { Counters, WindowCount } from '../limits/window-counters.js'
import { TooManyAttemptsError } from '../shared/errors.js'
import { DataEnvelope } from '../shared/schema.js'
import type { Principal, UserService } from '../users/service.js'
import type { LinkRow } from '../db/types.js'
import { LinkRecord } from './schema.js'
import type { LinkService } from './service.js'

/** `/api/v1/links/` and the id as the route's parameter schema takes it (IdParams). */
const SHOW_PATH = /^\/api\/v1\/links\/([0-9]{1,15})$/

const JSON_TYPE = 'application/json; charset=utf-8'

export interface ShowFastPathDeps {
  users: UserService
  links: LinkService
  /** The per-key limit (API_RATE_LIMIT) and where it is counted; null when it is off. */
  limit: { max: number; counters: Counters } | null
  log: (error: unknown) => void
  /** True once the server is closing: the framework answers 503 from then on. */
  closing: () => boolean
}

export function showFastPath(deps: ShowFastPathDeps, next: Listener): Listener {
  const { users, links, limit, log, closing } = deps
  const serialize = fastJsonStringify(DataEnvelope(LinkRecord))

  const answer = (
    response: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: string,
  ) => {
    headers['content-type'] = JSON_TYPE
    headers['content-length'] = String(Buffer.byteLength(body))
    response.writeHead(status, headers)
    response.end(body)
  }

  /** The limit's headers, as the framework's rate-limit hook sets them. */
  const limitHeaders = (max: number, count: WindowCount | null): Record<string, string> => ({
    'x-ratelimit-limit': String(max),
    'x-ratelimit-remaining': String(Math.max(0, max - (count?.current ?? 0))),
    'x-ratelimit-reset': String(Math.ceil((count?.ttl ?? 0) / 1000)),
  })

  const show = async (
    request: IncomingMessage,
    response: ServerResponse,
    token: string,
    id: number,
  ): Promise<void> => {
    let principal: Principal
    let link: LinkRow
    try {
      const found = await authenticateKey(users, token, log)
      if (found === null) return next(request, response)
      principal = found
      link = await links.get(principal.userId, id)
    } catch {
      // Not the key's link, or a failure: the framework answers it, counting it as it does.
      return next(request, response)
    }
    let headers: Record<string, string> = {}
    try {
      if (limit !== null) {
        // A counter that cannot be reached refuses nothing (the framework's skipOnError).
        const count = await Promise.resolve(
          limit.counters.incr(apiLimitKey(token), API_LIMIT_WINDOW_MS),
        ).catch(() => null)
        headers = limitHeaders(limit.max, count)
        if (count !== null && count.current > limit.max) {
          throw new TooManyAttemptsError(Math.max(1, Math.ceil(count.ttl / 1000)))
        }
      }
      const [record] = await links.present(principal.userId, [link])
      answer(response, 200, headers, serialize({ data: record, status: 200 }))
    } catch (error) {
      // Counted already: answered here, as the framework's error handler answers it.
      const { status, body } = toResponse(error)
      if (status >= 500) log(error)
      if (error instanceof TooManyAttemptsError) {
        headers['x-ratelimit-remaining'] = '0'
        headers['retry-after'] = String(error.retryAfterSeconds)
      }
      if (status === 503) headers['retry-after'] = '5'
      answer(response, status, headers, JSON.stringify(body))
    }
  }

  return (request, response) => {
    const url = request.url ?? ''
    const match = request.method === 'GET' ? SHOW_PATH.exec(url) : null
    const token = match === null ? null : bearerTokenOf(request.headers.authorization)
    if (token === null || hasBody(request.headers) || closing()) {
      return next(request, response)
    }
    void show(request, response, token, Number(match![1]))
  }
}
