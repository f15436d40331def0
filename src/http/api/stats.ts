/**
 * `GET /api/v1/stats/{id}`: one statistic of one of the user's links over a period, as the
 * contract's paginated list, or the same rows as CSV with `format=csv`. A link that is not the
 * user's is a 404 before anything else is checked; then every bad parameter is reported (422).
 * An empty parameter counts as absent.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { acceptAliases } from '../aliases.js'
import { userIdOf } from '../auth.js'
import { pageEnvelope, pageRequest } from '../paging.js'
import { schemaErrors } from '../validation.js'
import { NotFoundError } from '../../shared/errors.js'
import {
  ErrorBody,
  IdParams,
  PageEnvelope,
  Type,
  ValidationErrorBody,
  type Static,
} from '../../shared/schema.js'
import { CSV_CONTENT_TYPE, csvFilename, linkHeader, statsCsv } from '../../stats/csv.js'
import { PLACE_NAMES, StatRecord, StatsQuery } from '../../stats/schema.js'
import type { StatsService } from '../../stats/service.js'

async function dropEmptyParameters(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>
  for (const [name, value] of Object.entries(query)) {
    if (value === '') Reflect.deleteProperty(query, name)
  }
}

/** Today's phpShort names for two statistics. */
const NAME_ALIASES: Readonly<Record<string, string>> = {
  click: 'clicks',
  operating_system: 'platform',
}

const statNameAliases = acceptAliases('query', {
  values: (query) => {
    if (typeof query.name === 'string' && Object.hasOwn(NAME_ALIASES, query.name))
      query.name = NAME_ALIASES[query.name]
  },
})

/** How a statistics route reads: whose rows they are, and the name of their CSV download. */
export interface StatsSubject {
  url: string
  summary: string
  /** Throws the contract's 404 unless the subject is the user's own. */
  checkOwner(userId: number, id: number): Promise<void>
  list: StatsService['list']
  /** The start of a CSV file's name (`stats-<it>-<name>-<from>-<to>.csv`). */
  fileName(id: number): number | string
}

export function statsRoutes(app: FastifyInstance, stats: StatsService, publicUrl: URL): void {
  statsRoute(app, stats, publicUrl, {
    url: '/stats/:id',
    summary: "A link's statistics",
    checkOwner: (userId, id) => stats.checkOwner(userId, id),
    list: (...args) => stats.list(...args),
    fileName: (id) => id,
  })
}

/** A statistics route of the contract's shape (links, tags). */
export function statsRoute(
  app: FastifyInstance,
  stats: StatsService,
  publicUrl: URL,
  subject: StatsSubject,
): void {
  app.get<{ Params: Static<typeof IdParams>; Querystring: StatsQuery }>(subject.url, {
    attachValidation: true,
    preValidation: [dropEmptyParameters, statNameAliases],
    schema: {
      tags: ['Stats'],
      summary: subject.summary,
      description:
        'Clicks per value of one statistic over a period of whole UTC days (see docs/stats.md). ' +
        'Only values with clicks are listed; the counts of every page add up to the clicks of the period.',
      params: IdParams,
      querystring: StatsQuery,
      response: {
        200: {
          description: 'The rows: the list envelope, or with `format=csv` the same rows as CSV.',
          content: {
            'application/json': { schema: PageEnvelope(StatRecord) },
            'text/csv': {
              schema: Type.String({
                description:
                  'A `value,count` header (`value,country,count` for `region` and `city`), then one line a row.',
              }),
            },
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
      const id = Number(request.params.id)
      await subject.checkOwner(userIdOf(request), id)
      const errors = schemaErrors(request)
      const query = request.query
      const period = stats.period({ from: query.from, to: query.to }, errors)
      errors.throwIfAny()
      const paging = pageRequest(query)
      const order = { by: query.sort_by ?? 'count', direction: paging.sort }
      const page = await subject.list(id, query.name, period!, order, paging)
      const envelope = pageEnvelope(request, publicUrl, page, paging, (row) => row)
      if (query.format !== 'csv') return envelope
      const filename = csvFilename(subject.fileName(id), query.name, period!, paging.page)
      return reply
        .type(CSV_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('link', linkHeader(envelope.links))
        .header('x-total-count', String(page.total))
        .send(statsCsv(page.rows, PLACE_NAMES.has(query.name)))
    },
  })
}
