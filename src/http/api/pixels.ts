import type { FastifyInstance } from 'fastify'
import type { PixelRow } from '../../db/types.js'
import { registerCrud } from '../crud.js'
import { toPixelRecord } from '../../pixels/record.js'
import {
  PixelCreateBody,
  PixelListQuery,
  PixelRecord,
  PixelUpdateBody,
  type PixelInput,
} from '../../pixels/schema.js'
import type { PixelService } from '../../pixels/service.js'
import { canonicalPixelType } from '../../pixels/types.js'

export function pixelRoutes(app: FastifyInstance, pixels: PixelService, publicUrl: URL): void {
  registerCrud<PixelRow, PixelRecord, PixelListQuery, PixelInput, PixelInput>(app, publicUrl, {
    path: '/pixels',
    object: 'pixel',
    tag: 'Pixels',
    record: PixelRecord,
    listQuery: PixelListQuery,
    createBody: PixelCreateBody,
    updateBody: PixelUpdateBody,
    present: async (_userId, rows) => rows.map(toPixelRecord),
    list: (userId, query, page) =>
      pixels.list(
        userId,
        {
          search: query.search,
          sortBy: query.sort_by ?? 'id',
          ...(query.type ? { type: canonicalPixelType(query.type) } : {}),
        },
        page,
      ),
    get: (userId, id) => pixels.get(userId, id),
    create: (userId, body, errors) => pixels.create(userId, body, errors),
    update: (userId, id, body, errors) => pixels.update(userId, id, body, errors),
    delete: (userId, id) => pixels.delete(userId, id),
  })
}
