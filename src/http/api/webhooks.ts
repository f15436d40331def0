/**
 * `/api/v1/webhooks`: the five operations (with the API's envelopes, paging, 422s and
 * tenancy), plus the secret's rotation, a test event, the delivery log and re-sending.
 * Written out rather than through registerCrud: the create answer carries the secret, which no
 * other answer does.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { userIdOf } from '../auth.js'
import { pageEnvelope, pageRequest } from '../paging.js'
import { rejectNulls, schemaErrors } from '../validation.js'
import {
  DataEnvelope,
  DeletedEnvelope,
  ErrorBody,
  IdParams,
  PageEnvelope,
  ValidationErrorBody,
  type TSchema,
} from '../../shared/schema.js'
import { toDeliveryRecord, toWebhookRecord, withSecret } from '../../webhooks/record.js'
import {
  DeliveryListQuery,
  DeliveryParams,
  DeliveryRecord,
  WebhookCreateBody,
  WebhookListQuery,
  WebhookRecord,
  WebhookUpdateBody,
  WebhookWithSecret,
  type WebhookInput,
} from '../../webhooks/schema.js'
import type { WebhookService } from '../../webhooks/service.js'

const tags = ['Webhooks']
const consumes = ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json']
const errors = { 401: ErrorBody, 404: ErrorBody, 429: ErrorBody }

function idOf(request: FastifyRequest): number {
  return Number((request.params as { id: string }).id)
}

export function webhookRoutes(app: FastifyInstance, hooks: WebhookService, publicUrl: URL): void {
  app.get('/webhooks', {
    schema: {
      tags,
      summary: 'List webhooks',
      querystring: WebhookListQuery,
      response: { 200: PageEnvelope(WebhookRecord), 422: ValidationErrorBody, ...errors },
    },
    handler: async (request) => {
      const query = request.query as WebhookListQuery
      const paging = pageRequest(query)
      const page = await hooks.list(userIdOf(request), query.search, paging)
      return pageEnvelope(request, publicUrl, page, paging, toWebhookRecord)
    },
  })

  app.get('/webhooks/:id', {
    schema: {
      tags,
      summary: 'Show a webhook',
      params: IdParams,
      response: { 200: DataEnvelope(WebhookRecord), ...errors },
    },
    handler: async (request) => ({
      data: toWebhookRecord(await hooks.get(userIdOf(request), idOf(request))),
      status: 200,
    }),
  })

  app.post('/webhooks', {
    attachValidation: true,
    preValidation: rejectNulls(WebhookCreateBody as TSchema),
    schema: {
      tags,
      summary: 'Store a webhook (its secret is in this answer only)',
      consumes,
      body: WebhookCreateBody,
      response: { 201: DataEnvelope(WebhookWithSecret), 422: ValidationErrorBody, ...errors },
    },
    handler: async (request, reply) => {
      const row = await hooks.create(
        userIdOf(request),
        request.body as WebhookInput,
        schemaErrors(request),
      )
      return reply.code(201).send({ data: withSecret(row), status: 200 })
    },
  })

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/webhooks/:id',
      attachValidation: true,
      preValidation: rejectNulls(WebhookUpdateBody as TSchema),
      schema: {
        tags,
        summary: 'Update a webhook',
        consumes,
        params: IdParams,
        body: WebhookUpdateBody,
        response: { 200: DataEnvelope(WebhookRecord), 422: ValidationErrorBody, ...errors },
      },
      handler: async (request) => {
        const row = await hooks.update(
          userIdOf(request),
          idOf(request),
          request.body as WebhookInput,
          schemaErrors(request),
        )
        return { data: toWebhookRecord(row), status: 200 }
      },
    })
  }

  app.delete('/webhooks/:id', {
    schema: {
      tags,
      summary: 'Delete a webhook',
      params: IdParams,
      response: { 200: DeletedEnvelope, ...errors },
    },
    handler: async (request) => {
      const row = await hooks.delete(userIdOf(request), idOf(request))
      return { id: row.id, object: 'webhook', deleted: true, status: 200 }
    },
  })

  app.post('/webhooks/:id/secret', {
    schema: {
      tags,
      summary: 'Rotate the signing secret (the new one is in this answer only)',
      params: IdParams,
      response: { 200: DataEnvelope(WebhookWithSecret), ...errors },
    },
    handler: async (request) => ({
      data: withSecret(await hooks.rotateSecret(userIdOf(request), idOf(request))),
      status: 200,
    }),
  })

  app.post('/webhooks/:id/test', {
    schema: {
      tags,
      summary: 'Send a webhook.test event',
      params: IdParams,
      response: { 202: ErrorBody, ...errors },
    },
    handler: async (request, reply) => {
      await hooks.sendTest(userIdOf(request), idOf(request))
      return reply.code(202).send({ message: 'Test event queued.', status: 202 })
    },
  })

  app.get('/webhooks/:id/deliveries', {
    schema: {
      tags,
      summary: "A webhook's deliveries, newest first, each with its logged attempts",
      params: IdParams,
      querystring: DeliveryListQuery,
      response: { 200: PageEnvelope(DeliveryRecord), 422: ValidationErrorBody, ...errors },
    },
    handler: async (request) => {
      const query = request.query as DeliveryListQuery
      const paging = pageRequest(query)
      const page = await hooks.deliveries(userIdOf(request), idOf(request), query.status, paging)
      return pageEnvelope(request, publicUrl, page, paging, toDeliveryRecord)
    },
  })

  app.post('/webhooks/:id/deliveries/:delivery/resend', {
    schema: {
      tags,
      summary: 'Send a delivery again (a failed one, typically)',
      params: DeliveryParams,
      response: { 200: DataEnvelope(DeliveryRecord), ...errors },
    },
    handler: async (request) => {
      const delivery = Number((request.params as { delivery: string }).delivery)
      const logged = await hooks.resend(userIdOf(request), idOf(request), delivery)
      return { data: toDeliveryRecord(logged), status: 200 }
    },
  })
}
