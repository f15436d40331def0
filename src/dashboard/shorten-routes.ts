/**
 * The quick shorten box's routes: `GET /dashboard/shorten` (the page, `?url=` prefilled, for
 * the bookmarklet) and `POST /dashboard/shorten`, which makes a link of one URL on the default
 * domain, validated as an API body. htmx gets the box alone (200 with the link, 422 with the
 * message); a plain post is sent back to the page it came from with `?shortened=<id>`, or gets
 * the Shorten page with the message.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { BODY_LIMIT } from '../http/body.js'
import { LinkCreateBody, type LinkRecord } from '../links/schema.js'
import type { DashboardServices } from './context.js'
import { NotFoundError, ValidationError, type FieldMessages } from '../shared/errors.js'
import {
  bodyOf,
  linkRecord,
  send,
  seeOther,
  validateAsApi,
  type LinkRouteOptions,
} from './link-route-helpers.js'
import { inPeoplesWords, linkNaming } from './messages.js'
import {
  SHORTEN_BACK,
  shortenFragment,
  shortenPage,
  withScheme,
  type ShortenFrom,
  type ShortenState,
} from './shorten-box.js'

/** The link a `?shortened=<id>` names, if it is the user's own; else nothing is shown. */
export async function shortenedLink(
  services: DashboardServices,
  userId: number,
  query: unknown,
): Promise<LinkRecord | null> {
  const given = (query as Record<string, unknown> | undefined)?.shortened
  if (typeof given !== 'string' || !/^[1-9][0-9]{0,14}$/.test(given)) return null
  try {
    return await linkRecord(services, userId, Number(given))
  } catch (error) {
    if (error instanceof NotFoundError) return null
    throw error
  }
}

function fromOf(value: unknown): ShortenFrom {
  return value === 'overview' || value === 'links' ? value : 'shorten'
}

/** Every message of a refused URL, in people's words, the URL's first. */
function messagesOf(fields: FieldMessages): string[] {
  const words = inPeoplesWords(fields, (field) =>
    field === 'url' ? '“Long URL”' : linkNaming(field),
  )
  return Object.entries(words)
    .sort(([a], [b]) => Number(b === 'url') - Number(a === 'url'))
    .flatMap(([, list]) => list)
}

export function shortenRoutes(
  app: FastifyInstance,
  options: LinkRouteOptions,
  defaultDomainId: () => Promise<number | null>,
): void {
  const { services } = options

  app.get('/shorten', { schema: { hide: true } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>
    const url = typeof query.url === 'string' ? query.url.slice(0, 4096) : ''
    const created = await shortenedLink(services, options.user(request).id, query)
    return send(reply, 200, shortenPage(options.viewer(request), { value: url, created }))
  })

  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    from: ShortenFrom,
    status: number,
    state: ShortenState,
  ): Promise<FastifyReply> {
    const viewer = options.viewer(request)
    if (request.headers['hx-request'] === 'true') {
      return reply
        .code(status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('vary', 'HX-Request')
        .send(shortenFragment({ ...state, csrf: viewer.csrf, from }))
    }
    return send(reply, status, shortenPage(viewer, state))
  }

  app.post(
    '/shorten',
    { schema: { hide: true }, bodyLimit: BODY_LIMIT },
    async (request, reply) => {
      const user = options.user(request)
      const raw = bodyOf(request)
      const from = fromOf(raw.from)
      const url = withScheme(typeof raw.url === 'string' ? raw.url : '')
      const { body, errors } = validateAsApi(request, LinkCreateBody, { url })
      try {
        const row = await services.links.create(user.id, body, errors, await defaultDomainId())
        if (request.headers['hx-request'] === 'true') {
          const created = await linkRecord(services, user.id, row.id)
          return answer(request, reply, from, 200, { created })
        }
        return seeOther(reply, `${SHORTEN_BACK[from]}?shortened=${row.id}`)
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error
        return answer(request, reply, from, 422, { value: url, errors: messagesOf(error.fields) })
      }
    },
  )
}
