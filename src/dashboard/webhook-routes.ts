/**
 * The Webhooks screens, on the webhooks service the API uses: list and create (the secret shown
 * once on the answer page), one webhook with its deliveries, a test event, and a delivery sent
 * again. The create form is checked by the API's schema, with the API's messages.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { NotFoundError, ValidationError } from '../shared/errors.js'
import { WebhookCreateBody, type WebhookInput } from '../webhooks/schema.js'
import { formInput, formRoute, seeOther, send, type DashboardContext } from './context.js'
import { newWebhookPage, webhookPage, webhooksPage } from './webhook-pages.js'

const ALL = { page: 1, perPage: 100, sort: 'desc' as const }

const NOTICES: Record<string, string> = {
  tested: 'A test event was queued; it shows below once it is sent.',
  resent: 'The delivery was queued again.',
}

function idOf(request: FastifyRequest, name: 'id' | 'delivery' = 'id'): number {
  const text = (request.params as Record<string, string | undefined>)[name] ?? ''
  if (!/^[1-9][0-9]{0,14}$/.test(text)) throw new NotFoundError()
  return Number(text)
}

/**
 * The create form as the API's body: the URL (empty is null, reported as required) and the
 * ticked events as a list (`events[]`), checked by the API's schema.
 */
const createRoute = {
  ...formRoute(WebhookCreateBody),
  preValidation: [
    async (request: FastifyRequest) => {
      const body = request.body as Record<string, unknown> | null
      if (typeof body !== 'object' || body === null) return
      const url = typeof body.url === 'string' && body.url !== '' ? body.url : null
      const events = Array.isArray(body.events)
        ? body.events.filter((e) => typeof e === 'string')
        : undefined
      request.body = {
        _csrf: body._csrf,
        ...(url === null ? {} : { url }),
        ...(events && events.length > 0 ? { events } : {}),
      }
    },
  ],
}

export function webhookRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const hooks = ctx.services.webhooks

  app.get('/webhooks', { schema: { hide: true } }, async (request, reply) => {
    const me = ctx.signedInOf(request)
    const list = await hooks.list(me.user.id, undefined, ALL)
    return send(reply, 200, webhooksPage(ctx.viewerOf(me), { hooks: list.rows }))
  })

  app.post('/webhooks', createRoute, async (request, reply) => {
    const me = ctx.signedInOf(request)
    const { body, errors } = formInput<WebhookInput>(request)
    try {
      const hook = await hooks.create(me.user.id, body, errors)
      return send(reply, 201, newWebhookPage(ctx.viewerOf(me), hook))
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      const typed = request.body as Record<string, unknown>
      const events = typed.events
      const list = await hooks.list(me.user.id, undefined, ALL)
      return send(
        reply,
        422,
        webhooksPage(ctx.viewerOf(me), {
          hooks: list.rows,
          values: {
            url: typeof typed.url === 'string' ? typed.url : '',
            events: Array.isArray(events) ? events.filter((e) => typeof e === 'string') : [],
          },
          errors: error.fields,
        }),
      )
    }
  })

  app.get('/webhooks/:id', { schema: { hide: true } }, async (request, reply) => {
    const me = ctx.signedInOf(request)
    const hook = await hooks.get(me.user.id, idOf(request))
    const deliveries = await hooks.deliveries(me.user.id, hook.id, undefined, {
      page: 1,
      perPage: 25,
      sort: 'desc',
    })
    const query = request.query as Record<string, unknown>
    const notice = Object.keys(NOTICES).find((name) => query[name] !== undefined)
    return send(
      reply,
      200,
      webhookPage(ctx.viewerOf(me), {
        hook,
        deliveries: deliveries.rows,
        notice: notice === undefined ? null : NOTICES[notice]!,
      }),
    )
  })

  app.post('/webhooks/:id/test', { schema: { hide: true } }, async (request, reply) => {
    const me = ctx.signedInOf(request)
    const id = idOf(request)
    await hooks.sendTest(me.user.id, id)
    return seeOther(reply, `/dashboard/webhooks/${id}?tested`)
  })

  app.post(
    '/webhooks/:id/deliveries/:delivery/resend',
    { schema: { hide: true } },
    async (request, reply) => {
      const me = ctx.signedInOf(request)
      const id = idOf(request)
      await hooks.resend(me.user.id, id, idOf(request, 'delivery'))
      return seeOther(reply, `/dashboard/webhooks/${id}?resent`)
    },
  )
}
