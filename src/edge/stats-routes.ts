/**
 * The stats page on every short domain: GET (and HEAD) `/<alias>/stats`, and the POST of its
 * password form. The link is found as a redirect finds it (domain, alias, the unknown-alias
 * limit); then the statistics' own gate (stats/password-gate.ts) says whether to show it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isApiPath } from '../http/error-handler.js'
import { statsPage, statsPeriodErrorPage } from '../pages/index.js'
import type { RedirectEngine, VisitInput } from '../redirects/engine.js'
import { withQuery } from '../redirects/outcome.js'
import type { RedirectLink } from '../redirects/redirect-link.js'
import { FieldErrors } from '../shared/errors.js'
import { statsPageInput } from '../stats/page-data.js'
import type { StatsPasswordGate } from '../stats/password-gate.js'
import type { StatsService } from '../stats/service.js'
import { acceptPasswordForms, sendOutcome, visitInput } from './visit-http.js'

type Query = Record<string, string | string[] | undefined>
type Request = FastifyRequest<{ Params: { alias: string }; Querystring: Query }>
type Found = { link: RedirectLink; input: VisitInput } | { done: FastifyReply }

export interface StatsPageParts {
  stats: StatsService
  gate: StatsPasswordGate
}

/** An absent or empty parameter is absent; a repeated one is kept as text (and fails). */
const parameter = (value: string | string[] | undefined) =>
  value === undefined || value === '' ? undefined : String(value)

async function showStats(
  reply: FastifyReply,
  stats: StatsService,
  link: RedirectLink,
  query: Query,
): Promise<FastifyReply> {
  const errors = new FieldErrors()
  const period = stats.period({ from: parameter(query.from), to: parameter(query.to) }, errors)
  const rendered =
    period === null
      ? statsPeriodErrorPage({
          messages: Object.values(errors.messages).flat(),
          resetHref: `/${link.alias}/stats`,
        })
      : statsPage(
          statsPageInput(
            { ...link, title: link.passwordHash === null ? link.title : null },
            await stats.overview(link.id, period),
            stats.today(),
          ),
        )
  return reply
    .code(period === null ? 422 : 200)
    .headers(rendered.headers)
    .send(rendered.html)
}

export function statsPageRoutes(
  app: FastifyInstance,
  engine: RedirectEngine,
  { stats, gate }: StatsPageParts,
): void {
  /** The link of the request, or the answer when there is none (or the path is the API's). */
  const linkOf = async (request: Request, reply: FastifyReply): Promise<Found> => {
    if (isApiPath(request.url)) {
      reply.callNotFound()
      return { done: reply }
    }
    const input = visitInput(request, request.params.alias)
    const found = await engine.find(input, request.params.alias)
    return 'link' in found
      ? { link: found.link, input }
      : { done: sendOutcome(reply, found.outcome) }
  }

  app.get('/:alias/stats', { schema: { hide: true } }, async (request: Request, reply) => {
    const found = await linkOf(request, reply)
    if (!('link' in found)) return found.done
    const { link, input } = found
    const refusal = gate.refusal(link, input.cookie, withQuery(`/${link.alias}/stats`, input.query))
    if (refusal !== null) return sendOutcome(reply, refusal)
    return showStats(reply, stats, link, request.query)
  })

  app.register(async (scope) => {
    acceptPasswordForms(scope)
    scope.post('/:alias/stats', { schema: { hide: true } }, async (request: Request, reply) => {
      const found = await linkOf(request, reply)
      if (!('link' in found)) return found.done
      const { link, input } = found
      const back = withQuery(`/${link.alias}/stats`, input.query)
      const body = request.body as Record<string, unknown> | undefined
      return sendOutcome(reply, await gate.submit(input.ip, link, body?.password, back))
    })
  })
}
