/**
 * The visitor-facing routes on every short domain: `/<alias>` (and `+` for the preview), the
 * password form's POST, the stats page (`/<alias>/stats`, in stats-routes.ts) and the
 * domain's root (the default domain's home page when it has no index page). The service's own paths (`/api/…`, `/health`) are registered routes and always
 * win over an alias.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ClickRecorder } from '../clicks/recorder.js'
import { statsPageRoutes, type StatsPageParts } from './stats-routes.js'
import type { RedirectEngine } from '../redirects/engine.js'
import type { RedirectCache } from '../redirects/redirect-cache.js'
import { page, redirect } from '../redirects/outcome.js'
import { acceptPasswordForms, sendOutcome, visitInput } from './visit-http.js'

export function redirectRoutes(
  app: FastifyInstance,
  engine: RedirectEngine,
  cache: RedirectCache,
  recorder: ClickRecorder,
  stats: StatsPageParts,
  root: {
    isDefaultDomain: (request: FastifyRequest) => boolean
    /** The home page of the default domain when it has no index page. */
    home: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>
  },
): void {
  app.get<{ Params: { alias: string } }>(
    '/:alias',
    { schema: { hide: true } },
    async (request, reply) => {
      const visit = await engine.visit(visitInput(request, request.params.alias))
      // Past the click backlog's bound, answered when there is room (see ClickRecorder).
      if (visit.click !== null && recorder.full) await recorder.room()
      sendOutcome(reply, visit.outcome)
      if (visit.click !== null) recorder.record(visit.click)
      return reply
    },
  )

  app.register(async (scope) => {
    acceptPasswordForms(scope)
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

  statsPageRoutes(app, engine, stats)

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const domain = await cache.domain(request.hostname)
    if (domain?.index_page) return sendOutcome(reply, redirect(302, domain.index_page))
    if (root.isDefaultDomain(request)) return root.home(request, reply)
    return sendOutcome(reply, page(404, { page: 'not-found' as const }))
  })
}
