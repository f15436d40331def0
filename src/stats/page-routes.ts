/**
 * The stats page on every short domain: GET (and HEAD) `/<alias>/stats`, and the POST of its
 * password form. The link is found as a redirect finds it (domain, alias, the unknown-alias
 * limit); then its `privacy` decides, whatever else the link is (disabled, expired, password):
 * 0 shows the page, 1 the private notice (403), 2 the statistics password form until the
 * password is given (remembered by the signed `slink_st_<id>` cookie; wrong attempts limited
 * like the link password's). A privacy-2 link without a stored password stays private.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isApiPath } from '../http/error-handler.js'
import { passwordPage, statsPage, statsPeriodErrorPage, statsPrivatePage } from '../pages/index.js'
import type { RedirectEngine, VisitInput } from '../redirects/engine.js'
import { page, redirect, withQuery, type Outcome } from '../redirects/outcome.js'
import type { RedirectLink } from '../redirects/redirect-link.js'
import { acceptPasswordForms, sendOutcome, visitInput } from '../redirects/visit-http.js'
import { FieldErrors } from '../shared/errors.js'
import { statsOverview } from './overview.js'
import { statsPageInput } from './page-data.js'
import type { StatsService } from './service.js'

type Query = Record<string, string | string[] | undefined>
type Request = FastifyRequest<{ Params: { alias: string }; Querystring: Query }>
type Found = { link: RedirectLink; input: VisitInput } | { done: FastifyReply }

/** An absent or empty parameter is absent; a repeated one is kept as text (and fails). */
const parameter = (value: string | string[] | undefined) =>
  value === undefined || value === '' ? undefined : String(value)

async function showStats(stats: StatsService, link: RedirectLink, query: Query): Promise<Outcome> {
  const errors = new FieldErrors()
  const period = stats.period({ from: parameter(query.from), to: parameter(query.to) }, errors)
  if (period === null) {
    const messages = Object.values(errors.messages).flat()
    return page(422, statsPeriodErrorPage({ messages, resetHref: `/${link.alias}/stats` }))
  }
  const overview = await statsOverview(stats.store, link.id, period)
  const title = link.passwordHash === null ? link.title : null
  return page(200, statsPage(statsPageInput({ ...link, title }, overview, stats.today())))
}

export function statsPageRoutes(
  app: FastifyInstance,
  engine: RedirectEngine,
  stats: StatsService,
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
  const isPrivate = (link: RedirectLink) =>
    link.privacy === 1 || (link.privacy === 2 && link.privacyPasswordHash === null)

  app.get('/:alias/stats', { schema: { hide: true } }, async (request: Request, reply) => {
    const found = await linkOf(request, reply)
    if (!('link' in found)) return found.done
    const { link, input } = found
    if (isPrivate(link)) return sendOutcome(reply, page(403, statsPrivatePage()))
    if (link.privacy === 2 && !engine.remembered('stats', link, input.cookie, stats.now())) {
      const formAction = withQuery(`/${link.alias}/stats`, input.query)
      return sendOutcome(
        reply,
        page(200, passwordPage({ alias: link.alias, formAction, kind: 'stats' })),
      )
    }
    return sendOutcome(reply, await showStats(stats, link, request.query))
  })

  app.register(async (scope) => {
    acceptPasswordForms(scope)
    scope.post('/:alias/stats', { schema: { hide: true } }, async (request: Request, reply) => {
      const found = await linkOf(request, reply)
      if (!('link' in found)) return found.done
      const { link, input } = found
      const back = withQuery(`/${link.alias}/stats`, input.query)
      const hash = link.privacy === 2 ? link.privacyPasswordHash : null
      if (hash === null) return sendOutcome(reply, redirect(303, back))
      const body = request.body as Record<string, unknown> | undefined
      const outcome = await engine.checkPassword(
        input.ip,
        link,
        'stats',
        hash,
        body?.password,
        back,
      )
      return sendOutcome(
        reply,
        outcome === 'ok'
          ? engine.rememberAndGo('stats', link, link.privacyPasswordTag, back)
          : outcome,
      )
    })
  })
}
