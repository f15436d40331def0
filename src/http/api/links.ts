import type { FastifyInstance } from 'fastify'
import type { LinkRow } from '../../db/types.js'
import { acceptAliases, LINK_LIST_ALIASES } from '../aliases.js'
import { userIdOf } from '../auth.js'
import { registerCrud } from '../crud.js'
import {
  DataEnvelope,
  ErrorBody,
  IdParams,
  StringEnum,
  Type,
  ValidationErrorBody,
  type TSchema,
} from '../../shared/schema.js'
import { rejectNulls, schemaErrors } from '../validation.js'
import { sendLinksExport } from './link-export.js'
import type { LinkPresenter } from '../../links/record.js'
import {
  LinkCreateBody,
  LinkListQuery,
  LinkRecord,
  LinkUpdateBody,
  type LinkInput,
} from '../../links/schema.js'
import { linkFilterOf } from '../../links/list-query.js'
import type { LinkService } from '../../links/service.js'

export const LinkExportQuery = Type.Object({
  ...LinkListQuery.properties,
  format: Type.Optional(
    StringEnum(['csv', 'json'] as const, {
      description: 'Default csv: the columns of the `csv` import source. json: the link records.',
    }),
  ),
})
export type LinkExportQuery = LinkListQuery & { format?: 'csv' | 'json' }

/**
 * `GET /api/v1/links/export`: the links of the list's filters, streamed in id order (paging and
 * sorting parameters are accepted and have no effect). Registered before `/links/:id`.
 */
function exportRoute(app: FastifyInstance, links: LinkService, presenter: LinkPresenter) {
  app.get<{ Querystring: LinkExportQuery }>('/links/export', {
    preValidation: acceptAliases('query', {
      ...LINK_LIST_ALIASES,
      names: { by: 'search_by', ...LINK_LIST_ALIASES.names },
    }),
    schema: {
      tags: ['Links'],
      summary: 'Export links',
      description:
        'Every link the filters select, as CSV (readable by `slink import-links --from csv` and ' +
        'POST /api/v1/imports with `source=csv`) or JSON, streamed. Passwords are never exported.',
      querystring: LinkExportQuery,
      response: {
        200: {
          description: 'The links.',
          content: {
            'text/csv': { schema: Type.String() },
            'application/json': {
              schema: Type.Object({ data: Type.Array(LinkRecord), status: Type.Integer() }),
            },
          },
        },
        401: ErrorBody,
        422: ValidationErrorBody,
        429: ErrorBody,
      },
    },
    handler: (request, reply) =>
      sendLinksExport(reply, links, presenter, userIdOf(request), request.query),
  })
}

export const LinkDuplicateBody = Type.Object(
  { alias: LinkCreateBody.properties.alias },
  { additionalProperties: false },
)

/** `POST /api/v1/links/{id}/duplicate`: a copy of the link under a new alias, answered as a store. */
function duplicateRoute(app: FastifyInstance, links: LinkService) {
  app.post('/links/:id/duplicate', {
    attachValidation: true,
    preValidation: rejectNulls(LinkDuplicateBody as TSchema),
    schema: {
      tags: ['Links'],
      summary: 'Duplicate a link',
      description:
        'A new link with every setting of the link (URL, title, targeting, passwords, expiry, ' +
        'privacy, space, domain, pixels) and none of its clicks, under `alias` or a random one. ' +
        'Raises `link.created`.',
      consumes: ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'],
      params: IdParams,
      body: LinkDuplicateBody,
      response: {
        201: DataEnvelope(LinkRecord),
        401: ErrorBody,
        404: ErrorBody,
        422: ValidationErrorBody,
        429: ErrorBody,
      },
    },
    handler: async (request, reply) => {
      const userId = userIdOf(request)
      const errors = schemaErrors(request)
      const id = Number((request.params as { id: string }).id)
      const body = (request.body ?? {}) as { alias?: string | null }
      const row = await links.duplicate(userId, id, body, errors)
      const [record] = await links.present(userId, [row])
      return reply.code(201).send({ data: record, status: 200 })
    },
  })
}

export function linkRoutes(
  app: FastifyInstance,
  links: LinkService,
  presenter: LinkPresenter,
  publicUrl: URL,
  defaultDomainId: () => number | null,
): void {
  exportRoute(app, links, presenter)
  duplicateRoute(app, links)
  registerCrud<LinkRow, LinkRecord, LinkListQuery, LinkInput, LinkInput>(app, publicUrl, {
    path: '/links',
    object: 'link',
    tag: 'Links',
    record: LinkRecord,
    listQuery: LinkListQuery,
    createBody: LinkCreateBody,
    updateBody: LinkUpdateBody,
    // phpShort 2.x names.
    listAliases: LINK_LIST_ALIASES,
    bodyAliases: { names: { space: 'space_id' } },
    present: (userId, rows) => links.present(userId, rows),
    list: (userId, query, page) => links.list(userId, linkFilterOf(query), page),
    get: (userId, id) => links.get(userId, id),
    create: (userId, body, errors) => links.create(userId, body, errors, defaultDomainId()),
    update: (userId, id, body, errors) => links.update(userId, id, body, errors),
    delete: (userId, id) => links.delete(userId, id),
  })
}
