/**
 * The statistics of one of the user's tags in the dashboard (`/dashboard/tags/{id}/stats`,
 * each list as `stats.csv`): the statistics service's sums of the links carrying it, as the
 * API's `/tags/{id}/stats` gives them. Another user's tag, a missing one or a malformed id is
 * the dashboard's 404 page.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TagRow } from '../db/types.js'
import { NotFoundError } from '../shared/errors.js'
import { pathId, send, type DashboardContext } from './context.js'
import type { Query } from './own-link.js'
import { dashboardNotFoundPage } from './resource-pages.js'
import { sendStatsCsv, statsView, type StatsSubject } from './stats-screen.js'
import { tagStatsPage } from './tag-stats-page.js'

export function tagStatsRoutes(dashboard: FastifyInstance, ctx: DashboardContext): void {
  const { stats, tags } = ctx.services
  const viewer = (request: FastifyRequest) => ctx.viewerOf(ctx.signedInOf(request))

  /** The user's tag of the path's id, or null. */
  async function ownTag(request: FastifyRequest): Promise<TagRow | null> {
    const id = pathId(request)
    if (id === null) return null
    try {
      return await tags.get(ctx.signedInOf(request).user.id, id)
    } catch (error) {
      if (error instanceof NotFoundError) return null
      throw error
    }
  }

  const subjectOf = async (tag: TagRow): Promise<StatsSubject> => ({
    page: `/dashboard/tags/${tag.id}/stats`,
    createdAt: await tags.since(tag),
    fileId: `tag-${tag.id}`,
    overview: (period) => stats.overviewOfTag(tag.id, period),
    all: (name, period) => stats.allOfTag(tag.id, name, period),
  })

  dashboard.get('/tags/:id/stats', { schema: { hide: true } }, async (request, reply) => {
    const tag = await ownTag(request)
    if (!tag) return send(reply, 404, dashboardNotFoundPage(viewer(request), 'tags'))
    const { status, view } = await statsView(stats, request.query as Query, await subjectOf(tag))
    return send(reply, status, tagStatsPage(viewer(request), { tag, ...view }))
  })

  dashboard.get('/tags/:id/stats.csv', { schema: { hide: true } }, async (request, reply) => {
    const tag = await ownTag(request)
    if (!tag) return send(reply, 404, dashboardNotFoundPage(viewer(request), 'tags'))
    return sendStatsCsv(reply, stats, request.query as Query, await subjectOf(tag), viewer(request))
  })
}
