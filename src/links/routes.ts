import type { FastifyInstance } from 'fastify'
import type { LinkRow } from '../db/types.js'
import { clickSortAliases } from '../http/aliases.js'
import { registerCrud } from '../http/crud.js'
import { presentLinks, type LinkPresenterDeps } from './record.js'
import {
  LinkCreateBody,
  LinkListQuery,
  LinkRecord,
  LinkUpdateBody,
  type LinkInput,
} from './schema.js'
import type { LinkService } from './service.js'
import type { LinkStatus } from './store.js'

const STATUS: Record<number, LinkStatus | undefined> = {
  0: undefined,
  1: 'active',
  2: 'expired',
  3: 'disabled',
}

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
    listAliases: {
      names: { space: 'space_id', domain: 'domain_id' },
      values: clickSortAliases,
    },
    bodyAliases: { names: { space: 'space_id' } },
    present: (userId, rows) => presentLinks(presenter, userId, rows),
    list: (userId, query, page) =>
      links.list(
        userId,
        {
          search: query.search,
          searchBy: query.search_by ?? 'title',
          status: STATUS[query.status ?? 0],
          spaceId: query.space_id,
          domainId: query.domain_id,
          pixelId: query.pixel_id,
          sortBy: query.sort_by ?? 'id',
        },
        page,
      ),
    get: (userId, id) => links.get(userId, id),
    create: (userId, body, errors) => links.create(userId, body, errors, defaultDomainId()),
    update: (userId, id, body, errors) => links.update(userId, id, body, errors),
    delete: (userId, id) => links.delete(userId, id),
  })
}
