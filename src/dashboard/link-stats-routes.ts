/**
 * The dashboard's pages of one link beside its row in the list: its statistics
 * (`/dashboard/links/{id}/stats`, each list as `stats.csv`) and its QR code
 * (`/dashboard/links/{id}/qr`, the image as `qr.svg` and `qr.png`). Only the owner's links
 * exist here: another user's id, a missing one or a malformed one is the same 404 page,
 * whatever the link's privacy (privacy is for visitors of the public stats page). The numbers
 * come from the statistics service the API uses, for the same period rules and messages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { presentLinks } from '../links/record.js'
import {
  QR_DEFAULT_SIZE,
  QR_MAX_SIZE,
  QR_MIN_SIZE,
  qrFilename,
  qrImage,
  type QrFormat,
} from '../links/qr.js'
import type { RenderedPage } from '../pages/layout.js'
import type { Services } from '../services.js'
import { FieldErrors, NotFoundError } from '../shared/errors.js'
import { CSV_CONTENT_TYPE, csvFilename, statsCsv } from '../stats/csv.js'
import { statsOverview } from '../stats/overview.js'
import { countryName, statsTables } from '../stats/page-data.js'
import { dayOfInstant, type Period } from '../stats/period.js'
import { periodChoices } from '../stats/period-choices.js'
import { STAT_NAMES, type StatName, type StatRecord } from '../stats/schema.js'
import { linkQrPage } from './link-qr-page.js'
import {
  downloadErrorPage,
  linkNotFoundPage,
  linkStatsPage,
  type StatsLink,
} from './link-stats-page.js'
import type { Viewer } from './shell.js'

/** Who is asking: the signed-in user and what the layout shows of them. */
export type SignedInAs = (request: FastifyRequest) => { userId: number; viewer: Viewer }

type Query = Record<string, string | string[] | undefined>
type Request = FastifyRequest<{ Params: { id: string }; Querystring: Query }>

/** An absent or empty parameter is absent; a repeated one is kept as text (and fails). */
const parameter = (value: string | string[] | undefined) =>
  value === undefined || value === '' ? undefined : String(value)

/** Rows read at a time for a CSV (a list has at most a few thousand values). */
const CSV_BATCH = 1000

function send(reply: FastifyReply, status: number, page: RenderedPage): FastifyReply {
  return reply.code(status).headers(page.headers).send(page.html)
}

/** The `size` of a QR image (pixels; the API's bounds and messages), or what is wrong with it. */
function qrSize(query: Query): number | string[] {
  const value = parameter(query.size)
  if (value === undefined) return QR_DEFAULT_SIZE
  if (!/^[0-9]{1,5}$/.test(value)) return ['The size field must be an integer.']
  const size = Number(value)
  if (size < QR_MIN_SIZE) return [`The size field must be at least ${QR_MIN_SIZE}.`]
  if (size > QR_MAX_SIZE) return [`The size field must not be greater than ${QR_MAX_SIZE}.`]
  return size
}

export function linkStatsRoutes(
  dashboard: FastifyInstance,
  services: Services,
  signedInAs: SignedInAs,
): void {
  /** The user's link with its short URL and creation time, or null (sent as the 404 page). */
  async function ownLink(request: Request): Promise<(StatsLink & { createdAt: number }) | null> {
    if (!/^[0-9]{1,15}$/.test(request.params.id)) return null
    const { userId } = signedInAs(request)
    try {
      const row = await services.links.get(userId, Number(request.params.id))
      const [record] = await presentLinks(services.presenter, userId, [row])
      const { id, alias, title } = row
      return { id, alias, title, shortUrl: record!.short_url, createdAt: row.created_at }
    } catch (error) {
      if (error instanceof NotFoundError) return null
      throw error
    }
  }

  const period = (query: Query, errors: FieldErrors): Period | null =>
    services.stats.period({ from: parameter(query.from), to: parameter(query.to) }, errors)

  dashboard.get('/links/:id/stats', { schema: { hide: true } }, async (request: Request, reply) => {
    const { viewer } = signedInAs(request)
    const link = await ownLink(request)
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
    const overview = await statsOverview(services.stats.store, link.id, shown)
    const countries = await allRows(link.id, 'country', shown)
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
  })

  /** Every row of a list in the period: by value for days and hours, else most clicked first. */
  async function allRows(linkId: number, name: StatName, of: Period): Promise<StatRecord[]> {
    const chronological = name === 'clicks' || name === 'clicks_hour' || name === 'imported'
    const order = chronological
      ? ({ by: 'value', direction: 'asc' } as const)
      : ({ by: 'count', direction: 'desc' } as const)
    const rows: StatRecord[] = []
    for (let page = 1; ; page++) {
      const found = await services.stats.list(linkId, name, of, order, {
        page,
        perPage: CSV_BATCH,
        sort: order.direction,
      })
      rows.push(...found.rows)
      if (rows.length >= found.total || found.rows.length === 0) return rows
    }
  }

  dashboard.get(
    '/links/:id/stats.csv',
    { schema: { hide: true } },
    async (request: Request, reply) => {
      const { viewer } = signedInAs(request)
      const link = await ownLink(request)
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
      const rows = await allRows(link.id, name as StatName, shown)
      return reply
        .code(200)
        .type(CSV_CONTENT_TYPE)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header(
          'content-disposition',
          `attachment; filename="${csvFilename(link.id, name, shown, 1)}"`,
        )
        .send(statsCsv(rows))
    },
  )

  dashboard.get('/links/:id/qr', { schema: { hide: true } }, async (request: Request, reply) => {
    const { viewer } = signedInAs(request)
    const link = await ownLink(request)
    if (!link) return send(reply, 404, linkNotFoundPage(viewer))
    return send(reply, 200, linkQrPage(viewer, link))
  })

  for (const format of ['svg', 'png'] as const satisfies readonly QrFormat[]) {
    dashboard.get(
      `/links/:id/qr.${format}`,
      { schema: { hide: true } },
      async (request: Request, reply) => {
        const { viewer } = signedInAs(request)
        const link = await ownLink(request)
        if (!link) return send(reply, 404, linkNotFoundPage(viewer))
        const size = qrSize(request.query)
        if (typeof size !== 'number') {
          const back = `/dashboard/links/${link.id}/qr`
          return send(reply, 422, downloadErrorPage(viewer, { messages: size, back }))
        }
        const image = await qrImage(link.shortUrl, format, size)
        return (
          reply
            .code(200)
            .type(image.contentType)
            .header('cache-control', 'no-store')
            .header('x-content-type-options', 'nosniff')
            // An SVG opened on its own is a document of this origin: it may run nothing.
            .header('content-security-policy', "default-src 'none'")
            .header(
              'content-disposition',
              `attachment; filename="${qrFilename(link.alias, format)}"`,
            )
            .send(image.body)
        )
      },
    )
  }
}
