import type { FastifyInstance } from 'fastify'
import type { DomainRow } from '../../db/types.js'
import { registerCrud } from '../crud.js'
import { toDomainRecord } from '../../domains/record.js'
import {
  DomainCreateBody,
  DomainListQuery,
  DomainRecord,
  DomainUpdateBody,
  type DomainCreateInput,
  type DomainUpdateInput,
} from '../../domains/schema.js'
import type { DomainService } from '../../domains/service.js'

export function domainRoutes(app: FastifyInstance, domains: DomainService, publicUrl: URL): void {
  registerCrud<DomainRow, DomainRecord, DomainListQuery, DomainCreateInput, DomainUpdateInput>(
    app,
    publicUrl,
    {
      path: '/domains',
      object: 'domain',
      tag: 'Domains',
      record: DomainRecord,
      listQuery: DomainListQuery,
      createBody: DomainCreateBody,
      updateBody: DomainUpdateBody,
      present: async (_userId, rows) => rows.map(toDomainRecord),
      list: (userId, query, page) =>
        domains.list(userId, { search: query.search, sortBy: query.sort_by ?? 'id' }, page),
      get: (userId, id) => domains.get(userId, id),
      create: (userId, body, errors) => domains.create(userId, body, errors),
      update: (userId, id, body, errors) => domains.update(userId, id, body, errors),
      delete: (userId, id) => domains.delete(userId, id),
    },
  )
}
