import type { FastifyInstance } from 'fastify'
import type { LinkRow } from '../db/types.js'
import { registerCrud } from '../http/crud.js'
import { presentLinks, type LinkPresenterDeps } from './record.js'
import {
  LinkCreateBody,
  LinkListQuery,
  LinkRecord,
  LinkUpdateBody,
  type LinkInput,
} from './schema.js'
import { LINK_LIST_ALIASES, linkFilterOf } from './list-query.js'
import type { LinkService } from './service.js'

export function linkRoutes(
  app: FastifyInstance,
  links: LinkService,
  presenter: LinkPresenterDeps,
  publicUrl: URL,
  defaultDomainId: () => number | null,
): void {
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
    present: (userId, rows) => presentLinks(presenter, userId, rows),
    list: (userId, query, page) => links.list(userId, linkFilterOf(query), page),
    get: (userId, id) => links.get(userId, id),
    create: (userId, body, errors) => links.create(userId, body, errors, defaultDomainId()),
    update: (userId, id, body, errors) => links.update(userId, id, body, errors),
    delete: (userId, id) => links.delete(userId, id),
  })
}
