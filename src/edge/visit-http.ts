/**
 * The framework side of a visit, shared by the visitor-facing routes (redirects, password
 * forms, the stats page): a request read into the engine's `VisitInput`, an answer written to
 * the reply (its page rendered here, at the edge), and the small form parser of the password
 * forms.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { VisitInput } from '../redirects/engine.js'
import type { RenderedPage } from '../pages/layout.js'
import { renderVisitPage } from './visit-pages.js'
import type { Answer, VisitPage } from '../redirects/outcome.js'

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

/** Sends an answer whose page is one of the engine's. */
export function sendOutcome(reply: FastifyReply, outcome: Answer<VisitPage>): FastifyReply {
  return sendAnswer(reply, outcome, renderVisitPage)
}

/** Sends an answer, rendering its page (if it is one) with `render`. */
export function sendAnswer<P>(
  reply: FastifyReply,
  outcome: Answer<P>,
  render: (facts: P) => RenderedPage,
): FastifyReply {
  if (outcome.setCookie) reply.header('set-cookie', outcome.setCookie)
  if (outcome.kind === 'redirect') {
    return reply
      .code(outcome.status)
      .header('cache-control', 'no-store')
      .header('location', outcome.location)
      .send()
  }
  if (outcome.retryAfter !== undefined) reply.header('retry-after', String(outcome.retryAfter))
  const rendered = render(outcome.page)
  return reply.code(outcome.status).headers(rendered.headers).send(rendered.html)
}

/** Password forms arrive url-encoded; their fields are read flat (no bracket nesting). */
export function acceptPasswordForms(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  )
}
