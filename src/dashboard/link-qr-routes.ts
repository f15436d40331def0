/**
 * The QR code of one of the user's links in the dashboard: the page (`/dashboard/links/{id}/qr`)
 * and the image as `qr.svg` and `qr.png?size=` (the API's bounds and messages), sent as
 * attachments; the code encodes the short URL with `qr=1` (links/scan-flag.ts). Another user's link is the 404 page. Images count against the user's QR limit,
 * with the API's (over it: a plain 429 page with `Retry-After`), and are drawn once and kept.
 */
import type { FastifyInstance } from 'fastify'
import type { DashboardServices } from './context.js'
import type { AttemptLimiter } from '../limits/attempt-limiter.js'
import { scanUrl } from '../links/scan-flag.js'
import {
  QR_DEFAULT_SIZE,
  QR_MAX_SIZE,
  QR_MIN_SIZE,
  qrFilename,
  type QrFormat,
} from '../links/qr.js'
import { TooManyAttemptsError } from '../shared/errors.js'
import { linkQrPage } from './link-qr-page.js'
import { downloadErrorPage, linkNotFoundPage } from './link-stats-page.js'
import {
  ownLink,
  parameter,
  send,
  type LinkRequest,
  type Query,
  type SignedInAs,
} from './own-link.js'

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

export function linkQrRoutes(
  dashboard: FastifyInstance,
  services: DashboardServices,
  signedInAs: SignedInAs,
  qrLimit: AttemptLimiter,
): void {
  dashboard.get(
    '/links/:id/qr',
    { schema: { hide: true } },
    async (request: LinkRequest, reply) => {
      const { userId, viewer } = signedInAs(request)
      const link = await ownLink(services, userId, request.params.id)
      if (!link) return send(reply, 404, linkNotFoundPage(viewer))
      return send(reply, 200, linkQrPage(viewer, link))
    },
  )

  /** A PNG's name says its size, so two sizes downloaded do not take one name. */
  const qrDownloadName = (alias: string, format: QrFormat, size: number) =>
    format === 'png' ? qrFilename(`${alias}-${size}`, format) : qrFilename(alias, format)

  for (const format of ['svg', 'png'] as const satisfies readonly QrFormat[]) {
    dashboard.get(
      `/links/:id/qr.${format}`,
      { schema: { hide: true } },
      async (request: LinkRequest, reply) => {
        const { userId, viewer } = signedInAs(request)
        const wait = await qrLimit.take(`user:${userId}`)
        if (wait > 0) throw new TooManyAttemptsError(wait)
        const link = await ownLink(services, userId, request.params.id)
        if (!link) return send(reply, 404, linkNotFoundPage(viewer))
        const size = qrSize(request.query)
        if (typeof size !== 'number') {
          const back = `/dashboard/links/${link.id}/qr`
          return send(reply, 422, downloadErrorPage(viewer, { messages: size, back }))
        }
        const image = await services.qrCodes.image(scanUrl(link.shortUrl), format, size)
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
              `attachment; filename="${qrDownloadName(link.alias, format, size)}"`,
            )
            .send(image.body)
        )
      },
    )
  }
}
