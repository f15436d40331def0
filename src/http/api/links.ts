import type { FastifyInstance } from 'fastify'
import type { LinkRow } from '../../db/types.js'
import { acceptAliases, LINK_LIST_ALIASES } from '../aliases.js'
import { userIdOf } from '../auth.js'
import { registerCrud } from '../crud.js'
import { ErrorBody, StringEnum, Type, ValidationErrorBody } from '../../shared/schema.js'
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

export function linkRoutes(
  app: FastifyInstance,
  links: LinkService,
  presenter: LinkPresenter,
  publicUrl: URL,
  defaultDomainId: () => number | null,
): void {
  exportRoute(app, links, presenter)
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
