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
import { FieldErrors } from '../shared/errors.js'
import { CSV_CONTENT_TYPE, csvFilename, statsCsv } from '../stats/csv.js'
import { countryName, statsTables } from '../stats/page-data.js'
import { dayOfInstant, type Period } from '../stats/period.js'
import { periodChoices } from '../stats/period-choices.js'
import { PLACE_NAMES, STAT_NAMES, type StatName } from '../stats/schema.js'
import type { AttemptLimiter } from '../limits/attempt-limiter.js'
import { linkQrRoutes } from './link-qr-routes.js'
import { downloadErrorPage, linkNotFoundPage, linkStatsPage } from './link-stats-page.js'
import {
  ownLink,
  parameter,
  send,
  type LinkRequest,
  type Query,
  type SignedInAs,
} from './own-link.js'

export function linkStatsRoutes(
  dashboard: FastifyInstance,
  services: DashboardServices,
  signedInAs: SignedInAs,
  qrLimit: AttemptLimiter,
): void {
  const period = (query: Query, errors: FieldErrors): Period | null =>
    services.stats.period({ from: parameter(query.from), to: parameter(query.to) }, errors)

  dashboard.get(
    '/links/:id/stats',
    { schema: { hide: true } },
    async (request: LinkRequest, reply) => {
      const { userId, viewer } = signedInAs(request)
      const link = await ownLink(services, userId, request.params.id)
      if (!link) return send(reply, 404, linkNotFoundPage(viewer))
      const query = request.query
      const errors = new FieldErrors()
      const shown = period(query, errors)
      const today = services.stats.today()
      const base = `/dashboard/links/${link.id}/stats`
      const choices = periodChoices(today, dayOfInstant(link.createdAt)).map((c) => ({
        label: c.label,
        href: `${base}?from=${c.period.from}&to=${c.period.to}`,
        current: shown !== null && c.period.from === shown.from && c.period.to === shown.to,
      }))
      const asked = {
        from: parameter(query.from) ?? shown?.from ?? '',
        to: parameter(query.to) ?? shown?.to ?? '',
      }
      if (shown === null) {
        const view = { link, asked, choices, shown: { errors: errors.messages } }
        return send(reply, 422, linkStatsPage(viewer, view))
      }
      const overview = await services.stats.overview(link.id, shown)
      const countries = await services.stats.all(link.id, 'country', shown)
      const view = {
        link,
        asked,
        choices,
        shown: {
          period: shown,
          overview,
          tables: statsTables(overview),
          countries: new Map(countries.map((r) => [r.value ?? '', r.count])),
          nameOf: countryName,
        },
      }
      return send(reply, 200, linkStatsPage(viewer, view))
    },
  )

  dashboard.get(
    '/links/:id/stats.csv',
    { schema: { hide: true } },
    async (request: LinkRequest, reply) => {
      const { userId, viewer } = signedInAs(request)
      const link = await ownLink(services, userId, request.params.id)
      if (!link) return send(reply, 404, linkNotFoundPage(viewer))
      const errors = new FieldErrors()
      const name = parameter(request.query.name)
      if (name === undefined) errors.add('name', 'The name field is required.')
      else if (!(STAT_NAMES as readonly string[]).includes(name))
        errors.add('name', 'The selected name is invalid.')
      const shown = period(request.query, errors)
      if (shown === null || name === undefined || errors.has('name')) {
        const messages = Object.values(errors.messages).flat()
        const back = `/dashboard/links/${link.id}/stats`
        return send(reply, 422, downloadErrorPage(viewer, { messages, back }))
      }
      const rows = await services.stats.all(link.id, name as StatName, shown)
      return reply
        .code(200)
        .type(CSV_CONTENT_TYPE)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header(
          'content-disposition',
          `attachment; filename="${csvFilename(link.id, name, shown, 1)}"`,
        )
        .send(statsCsv(rows, PLACE_NAMES.has(name as StatName)))
    },
  )

  linkQrRoutes(dashboard, services, signedInAs, qrLimit)
}
