import type { FastifyInstance } from 'fastify'
import type { UtmTemplateRow } from '../../db/types.js'
import { registerCrud } from '../crud.js'
import { toUtmTemplateRecord } from '../../utm/record.js'
import {
  UtmTemplateCreateBody,
  UtmTemplateListQuery,
  UtmTemplateRecord,
  UtmTemplateUpdateBody,
  type UtmTemplateInput,
} from '../../utm/schema.js'
import type { UtmTemplateService } from '../../utm/service.js'

export function utmTemplateRoutes(
  app: FastifyInstance,
  templates: UtmTemplateService,
  publicUrl: URL,
): void {
  registerCrud<
    UtmTemplateRow,
    UtmTemplateRecord,
    UtmTemplateListQuery,
    UtmTemplateInput,
    UtmTemplateInput
  >(app, publicUrl, {
    path: '/utm-templates',
    object: 'utm_template',
    tag: 'UTM templates',
    record: UtmTemplateRecord,
    listQuery: UtmTemplateListQuery,
    createBody: UtmTemplateCreateBody,
    updateBody: UtmTemplateUpdateBody,
    present: async (_userId, rows) => rows.map(toUtmTemplateRecord),
    list: (userId, query, page) =>
      templates.list(userId, { search: query.search, sortBy: query.sort_by ?? 'id' }, page),
    get: (userId, id) => templates.get(userId, id),
    create: (userId, body, errors) => templates.create(userId, body, errors),
    update: (userId, id, body, errors) => templates.update(userId, id, body, errors),
    delete: (userId, id) => templates.delete(userId, id),
  })
}
