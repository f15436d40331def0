/**
 * The visitor-facing routes on every short domain: `/<alias>` (and `+` for the preview), the
 * password form's POST, and the domain's root. The service's own paths (`/api/…`, `/health`)
 * are registered routes and always win over an alias.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ClickRecorder } from '../clicks/recorder.js'
import { notFoundPage } from '../pages/index.js'
import type { RedirectEngine, VisitInput } from './engine.js'
import type { LinkDirectory } from './link-directory.js'
import { page, redirect, type Outcome } from './outcome.js'

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

export function redirectRoutes(
  app: FastifyInstance,
  engine: RedirectEngine,
  directory: LinkDirectory,
  recorder: ClickRecorder,
): void {
  app.get<{ Params: { alias: string } }>(
    '/:alias',
    { schema: { hide: true } },
    async (request, reply) => {
      const visit = await engine.visit(visitInput(request, request.params.alias))
      sendOutcome(reply, visit.outcome)
      if (visit.click !== null) recorder.record(visit.click)
      return reply
    },
  )

  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    )
    scope.post<{ Params: { alias: string }; Body: Record<string, unknown> | undefined }>(
      '/:alias',
      { schema: { hide: true } },
      async (request, reply) => {
        const outcome = await engine.submitPassword(
          visitInput(request, request.params.alias),
          request.body?.password,
        )
        return sendOutcome(reply, outcome)
      },
    )
  })

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const domain = await directory.domain(request.hostname)
    if (domain?.index_page) return sendOutcome(reply, redirect(302, domain.index_page))
    return sendOutcome(reply, page(404, notFoundPage()))
  })
}
