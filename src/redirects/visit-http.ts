/**
 * The framework side of a visit, shared by the visitor-facing routes (redirects, password
 * forms, the stats page): a request read into the engine's `VisitInput`, an `Outcome` written
 * to the reply, and the small form parser of the password forms.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { VisitInput } from './engine.js'
import type { Outcome } from './outcome.js'

/** The largest password form body (a password is at most 128 characters). */
const FORM_LIMIT = 4096

export function visitInput(request: FastifyRequest, alias: string): VisitInput {
  const at = request.url.indexOf('?')
  const headers = request.headers
  return {
    method: request.method,
    hostname: request.hostname,
    alias,
    query: at === -1 ? '' : request.url.slice(at + 1),
    ip: request.ip,
    userAgent: headers['user-agent'],
    acceptLanguage: headers['accept-language'],
    referer: headers.referer,
    cookie: headers.cookie,
  }
}

export function sendOutcome(reply: FastifyReply, outcome: Outcome): FastifyReply {
  if (outcome.setCookie) reply.header('set-cookie', outcome.setCookie)
  if (outcome.kind === 'redirect') {
    return reply
      .code(outcome.status)
      .header('cache-control', 'no-store')
      .header('location', outcome.location)
      .send()
  }
  if (outcome.retryAfter !== undefined) reply.header('retry-after', String(outcome.retryAfter))
  return reply.code(outcome.status).headers(outcome.page.headers).send(outcome.page.html)
}

/** Password forms arrive url-encoded; their fields are read flat (no bracket nesting). */
export function acceptPasswordForms(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  )
}
