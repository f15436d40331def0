/**
 * `GET /api/v1/links/{id}/qr`: the QR code of one of the user's links, encoding its short URL
 * with the scan flag (`…/alias?qr=1`, links/scan-flag.ts), as SVG or PNG. Each request counts against the user's QR limit first (shared by all their
 * keys and the dashboard; over it a 429). As for the statistics, a link that is not the user's
 * (or a malformed id) is a 404 before the parameters are looked at; then every bad parameter is
 * reported (422). Codes are drawn once and kept (see qr-codes.ts).
 */
import type { FastifyInstance } from 'fastify'
import { userIdOf } from '../auth.js'
import { schemaErrors } from '../validation.js'
import type { AttemptLimiter } from '../../limits/attempt-limiter.js'
import { NotFoundError, TooManyAttemptsError } from '../../shared/errors.js'
import { ErrorBody, IdParams, Type, ValidationErrorBody, type Static } from '../../shared/schema.js'
import { QR_DEFAULT_SIZE, QR_IMAGES_PER_MINUTE, qrFilename, QrQuery } from '../../links/qr.js'
import type { QrCodes } from '../../links/qr-codes.js'
import { scanUrl } from '../../links/scan-flag.js'
import type { LinkPresenter } from '../../links/record.js'
import type { LinkService } from '../../links/service.js'

export function qrRoutes(
  app: FastifyInstance,
  links: LinkService,
  presenter: LinkPresenter,
  qr: { codes: QrCodes; limit: AttemptLimiter },
): void {
  app.get<{ Params: Static<typeof IdParams>; Querystring: QrQuery }>('/links/:id/qr', {
    attachValidation: true,
    schema: {
      tags: ['Links'],
      summary: "A link's QR code",
      description:
        'The QR code of the short URL with `qr=1` (`https://short.example/alias?qr=1`: the ' +
        'redirect drops the parameter and counts the visit as a scan, statistics name `source`; ' +
        'see docs/stats.md), error correction M, a four-module quiet zone, as SVG ' +
        'or PNG, `size` pixels wide and high, with `Content-Disposition: inline` and a file ' +
        'name (`qr-<alias>.svg` or `.png`). At most ' +
        `${QR_IMAGES_PER_MINUTE} QR images a minute per user (all their keys and the dashboard ` +
        'together); over it a 429 with `Retry-After`.',
      params: IdParams,
      querystring: QrQuery,
      response: {
        200: {
          description: 'The image.',
          content: {
            'image/svg+xml': { schema: Type.String() },
            'image/png': { schema: Type.String({ format: 'binary' }) },
          },
        },
        401: ErrorBody,
        404: ErrorBody,
        422: ValidationErrorBody,
        429: ErrorBody,
      },
    },
    handler: async (request, reply) => {
      const failure = request.validationError as { validationContext?: string } | undefined
      if (failure?.validationContext === 'params') throw new NotFoundError()
      const userId = userIdOf(request)
      const wait = await qr.limit.take(`user:${userId}`)
      if (wait > 0) throw new TooManyAttemptsError(wait)
      const row = await links.get(userId, Number(request.params.id))
      schemaErrors(request).throwIfAny()
      const [record] = await presenter.present(userId, [row])
      const { format = 'svg', size = QR_DEFAULT_SIZE } = request.query
      const image = await qr.codes.image(scanUrl(record!.short_url), format, size)
      // Shown by a browser, yet saved under a useful name by `curl -OJ` or "Save as".
      const filename = qrFilename(row.alias, format)
      return reply
        .type(image.contentType)
        .header('content-disposition', `inline; filename="${filename}"`)
        .send(image.body)
    },
  })
}
