import type { FastifyInstance } from 'fastify'
import type { TagRow } from '../../db/types.js'
import type { StatsService } from '../../stats/service.js'
import { toTagRecord } from '../../tags/record.js'
import {
  TagCreateBody,
  TagListQuery,
  TagRecord,
  TagUpdateBody,
  type TagInput,
} from '../../tags/schema.js'
import type { TagService } from '../../tags/service.js'
import { registerCrud } from '../crud.js'
import { statsRoute } from './stats.js'

export function tagRoutes(
  app: FastifyInstance,
  tags: TagService,
  stats: StatsService,
  publicUrl: URL,
): void {
  registerCrud<TagRow, TagRecord, TagListQuery, TagInput, TagInput>(app, publicUrl, {
    path: '/tags',
    object: 'tag',
    tag: 'Tags',
    record: TagRecord,
    listQuery: TagListQuery,
    createBody: TagCreateBody,
    updateBody: TagUpdateBody,
    present: async (_userId, rows) => rows.map(toTagRecord),
    list: (userId, query, page) =>
      tags.list(userId, { search: query.search, sortBy: query.sort_by ?? 'id' }, page),
    get: (userId, id) => tags.get(userId, id),
    create: (userId, body, errors) => tags.create(userId, body, errors),
    update: (userId, id, body, errors) => tags.update(userId, id, body, errors),
    delete: (userId, id) => tags.delete(userId, id),
  })
  statsRoute(app, stats, publicUrl, {
    url: '/tags/:id/stats',
    summary: "The statistics of a tag's links, together",
    checkOwner: async (userId, id) => void (await tags.get(userId, id)),
    list: (...args) => stats.listOfTag(...args),
    fileName: (id) => `tag-${id}`,
  })
}
