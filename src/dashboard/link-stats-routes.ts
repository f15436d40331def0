/**
 * The dashboard's pages of one link beside its row in the list: its statistics
 * (`/dashboard/links/{id}/stats`, each list as `stats.csv`), and its QR code (registered from
 * here, so that the dashboard adds these pages with one call). Only the owner's links
 * exist here: another user's id, a missing one or a malformed one is the same 404 page,
 * whatever the link's privacy (privacy is for visitors of the public stats page). The numbers
 * come from the statistics service the API uses, for the same period rules and messages.
 */
import type { FastifyInstance } from 'fastify'
import type { DashboardServices } from './context.js'
import type { AttemptLimiter } from '../limits/attempt-limiter.js'
import { linkQrRoutes } from './link-qr-routes.js'
import { linkNotFoundPage, linkStatsPage } from './link-stats-page.js'
import { ownLink, send, type LinkRequest, type SignedInAs } from './own-link.js'
import { sendStatsCsv, statsView, type StatsSubject } from './stats-screen.js'

export function linkStatsRoutes(
  dashboard: FastifyInstance,
  services: DashboardServices,
  signedInAs: SignedInAs,
  qrLimit: AttemptLimiter,
): void {
  const { stats } = services
  const subjectOf = (link: { id: number; createdAt: number }): StatsSubject => ({
    page: `/dashboard/links/${link.id}/stats`,
    createdAt: link.createdAt,
    fileId: link.id,
    overview: (period) => stats.overview(link.id, period),
    all: (name, period) => stats.all(link.id, name, period),
  })

  dashboard.get(
    '/links/:id/stats',
    { schema: { hide: true } },
    async (request: LinkRequest, reply) => {
      const { userId, viewer } = signedInAs(request)
      const link = await ownLink(services, userId, request.params.id)
      if (!link) return send(reply, 404, linkNotFoundPage(viewer))
      const { status, view } = await statsView(stats, request.query, subjectOf(link))
      return send(reply, status, linkStatsPage(viewer, { link, ...view }))
    },
  )

  dashboard.get(
    '/links/:id/stats.csv',
    { schema: { hide: true } },
    async (request: LinkRequest, reply) => {
      const { userId, viewer } = signedInAs(request)
      const link = await ownLink(services, userId, request.params.id)
      if (!link) return send(reply, 404, linkNotFoundPage(viewer))
      return sendStatsCsv(reply, stats, request.query, subjectOf(link), viewer)
    },
  )

  linkQrRoutes(dashboard, services, signedInAs, qrLimit)
}
