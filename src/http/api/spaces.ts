import type { FastifyInstance } from 'fastify'
import type { SpaceRow } from '../../db/types.js'
import { registerCrud } from '../crud.js'
import { toSpaceRecord } from '../../spaces/record.js'
import {
  SpaceCreateBody,
  SpaceListQuery,
  SpaceRecord,
  SpaceUpdateBody,
  type SpaceInput,
} from '../../spaces/schema.js'
import type { SpaceService } from '../../spaces/service.js'

export function spaceRoutes(app: FastifyInstance, spaces: SpaceService, publicUrl: URL): void {
  registerCrud<SpaceRow, SpaceRecord, SpaceListQuery, SpaceInput, SpaceInput>(app, publicUrl, {
    path: '/spaces',
    object: 'space',
    tag: 'Spaces',
    record: SpaceRecord,
    listQuery: SpaceListQuery,
    createBody: SpaceCreateBody,
    updateBody: SpaceUpdateBody,
    present: async (_userId, rows) => rows.map(toSpaceRecord),
    list: (userId, query, page) =>
      spaces.list(userId, { search: query.search, sortBy: query.sort_by ?? 'id' }, page),
    get: (userId, id) => spaces.get(userId, id),
    create: (userId, body, errors) => spaces.create(userId, body, errors),
    update: (userId, id, body, errors) => spaces.update(userId, id, body, errors),
    delete: (userId, id) => spaces.delete(userId, id),
  })
}
