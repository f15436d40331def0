/**
 * The five operations every API resource has (list, show, store, update with PUT and PATCH,
 * delete), declared once: each resource supplies its schemas and service calls, and gets the
 * contract's envelopes, status codes and OpenAPI entries.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Page, PageRequest } from '../db/paging.js'
import type { FieldErrors } from '../shared/errors.js'
import {
  DataEnvelope,
  DeletedEnvelope,
  ErrorBody,
  IdParams,
  PageEnvelope,
  ValidationErrorBody,
  type TSchema,
} from '../shared/schema.js'
import { acceptAliases, type ParameterAliases } from './aliases.js'
import { userIdOf } from './auth.js'
import { pageEnvelope, pageRequest, type ListQueryBase } from './paging.js'
import { rejectNulls, schemaErrors } from './validation.js'

export interface CrudSpec<
  Row extends { id: number },
  Rec,
  Query extends ListQueryBase,
  Create,
  Update,
> {
  path: string
  object: string
  tag: string
  record: TSchema
  listQuery: TSchema
  createBody: TSchema
  updateBody: TSchema
  /** Older names of list parameters (`by` for `search_by` is accepted by every list). */
  listAliases?: ParameterAliases
  /** Older names of body fields, on store and update. */
  bodyAliases?: ParameterAliases
  /** Turns stored rows into wire records (related records fetched in one go). */
  present(userId: number, rows: Row[]): Promise<Rec[]>
  list(userId: number, query: Query, page: PageRequest): Promise<Page<Row>>
  get(userId: number, id: number): Promise<Row>
  create(userId: number, body: Create, errors: FieldErrors): Promise<Row>
  update(userId: number, id: number, body: Update, errors: FieldErrors): Promise<Row>
  delete(userId: number, id: number): Promise<Row>
}

/** Every body route takes the three encodings phpShort clients and others send. */
const consumes = ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json']

const errorResponses = {
  401: ErrorBody,
  404: ErrorBody,
  429: ErrorBody,
}

function idOf(request: FastifyRequest): number {
  return Number((request.params as { id: string }).id)
}

export function registerCrud<
  Row extends { id: number },
  Rec,
  Query extends ListQueryBase,
  Create,
  Update,
>(app: FastifyInstance, publicUrl: URL, spec: CrudSpec<Row, Rec, Query, Create, Update>): void {
  const one = async (userId: number, row: Row) => (await spec.present(userId, [row]))[0]!
  const tags = [spec.tag]
  const item = `/${spec.path.replace(/^\//, '')}/:id`
  const bodyAliases = acceptAliases('body', spec.bodyAliases ?? {})
  const listAliases = acceptAliases('query', {
    ...spec.listAliases,
    names: { by: 'search_by', ...spec.listAliases?.names },
  })

  app.get(spec.path, {
    preValidation: listAliases,
    schema: {
      tags,
      summary: `List ${spec.tag.toLowerCase()}`,
      querystring: spec.listQuery,
      response: { 200: PageEnvelope(spec.record), 422: ValidationErrorBody, ...errorResponses },
    },
    handler: async (request) => {
      const userId = userIdOf(request)
      const query = request.query as Query
      const paging = pageRequest(query)
      const page = await spec.list(userId, query, paging)
      const records = await spec.present(userId, page.rows)
      return pageEnvelope(
        request,
        publicUrl,
        { rows: records, total: page.total },
        paging,
        (r) => r,
      )
    },
  })

  app.get(item, {
    schema: {
      tags,
      summary: `Show a ${spec.object}`,
      params: IdParams,
      response: { 200: DataEnvelope(spec.record), ...errorResponses },
    },
    handler: async (request) => {
      const userId = userIdOf(request)
      return { data: await one(userId, await spec.get(userId, idOf(request))), status: 200 }
    },
  })

  app.post(spec.path, {
    attachValidation: true,
    preValidation: [bodyAliases, rejectNulls(spec.createBody)],
    schema: {
      tags,
      summary: `Store a ${spec.object}`,
      consumes,
      body: spec.createBody,
      response: { 201: DataEnvelope(spec.record), 422: ValidationErrorBody, ...errorResponses },
    },
    handler: async (request, reply) => {
      const userId = userIdOf(request)
      const errors = schemaErrors(request)
      const row = await spec.create(userId, request.body as Create, errors)
      return reply.code(201).send({ data: await one(userId, row), status: 200 })
    },
  })

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: item,
      attachValidation: true,
      preValidation: [bodyAliases, rejectNulls(spec.updateBody)],
      schema: {
        tags,
        summary: `Update a ${spec.object}`,
        consumes,
        params: IdParams,
        body: spec.updateBody,
        response: {
          200: DataEnvelope(spec.record),
          403: ErrorBody,
          422: ValidationErrorBody,
          ...errorResponses,
        },
      },
      handler: async (request) => {
        const userId = userIdOf(request)
        const errors = schemaErrors(request)
        const row = await spec.update(userId, idOf(request), request.body as Update, errors)
        return { data: await one(userId, row), status: 200 }
      },
    })
  }

  app.delete(item, {
    schema: {
      tags,
      summary: `Delete a ${spec.object}`,
      params: IdParams,
      response: { 200: DeletedEnvelope, 403: ErrorBody, ...errorResponses },
    },
    handler: async (request) => {
      const row = await spec.delete(userIdOf(request), idOf(request))
      return { id: row.id, object: spec.object, deleted: true, status: 200 }
    },
  })
}
