/**
 * The dashboard's link screens: the create and edit forms (validated exactly as the API
 * validates a body: the same schema, the same coercion, the same service rules and messages),
 * the row actions of the list (disable, enable, delete after a confirmation page) and the bulk
 * actions. Registered inside the signed-in `/dashboard` scope, whose preHandler has already
 * checked the session and the CSRF token of every POST.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.js'
import type { LinkRow, UserRow } from '../db/types.js'
import { BODY_LIMIT, normalise } from '../http/body.js'
import { bodyErrors, nullTaker, type SchemaIssue } from '../http/validation.js'
import { presentLinks } from '../links/record.js'
import { LinkCreateBody, LinkUpdateBody, type LinkInput, type LinkRecord } from '../links/schema.js'
import type { RenderedPage } from '../pages/layout.js'
import type { Services } from '../services.js'
import { parseDomainName } from '../shared/formats.js'
import type { TSchema } from '../shared/schema.js'
import { FieldErrors, NotFoundError, ValidationError } from '../shared/errors.js'
import { bulkConfirmPage, deleteConfirmPage } from './link-action-pages.js'
import type { Done } from './link-row-actions.js'
import {
  apiInput,
  applyRowAction,
  formValues,
  newLinkValues,
  recordValues,
  rowAction,
  type LinkFormValues,
  type RowAction,
} from './link-form.js'
import {
  linkFormPage,
  targetingFragment,
  type FocusHint,
  type LinkChoices,
  type LinkFormInput,
} from './link-form-page.js'
import type { Viewer } from './shell.js'

export interface LinkRouteOptions {
  config: Config
  services: Services
  user(request: FastifyRequest): UserRow
  viewer(request: FastifyRequest): Viewer
}

type Raw = Record<string, unknown>

/** At most this many links in one bulk action (the largest page of the list). */
const MAX_BULK = 100

const BULK_ACTIONS = ['delete', 'disable', 'enable', 'move'] as const
type BulkAction = (typeof BULK_ACTIONS)[number]

function send(reply: FastifyReply, status: number, page: RenderedPage): FastifyReply {
  return reply.code(status).headers(page.headers).send(page.html)
}

function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('cache-control', 'no-store').header('location', location).send()
}

function bodyOf(request: FastifyRequest): Raw {
  const body = request.body
  return typeof body === 'object' && body !== null ? (body as Raw) : {}
}

/** A path id: decimal digits naming a safe integer, else no such link. */
function idParam(request: FastifyRequest): number {
  const text = (request.params as { id: string }).id
  const id = /^[1-9]\d{0,15}$/.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(id)) throw new NotFoundError()
  return id
}

/** Where to go back to after a row or bulk action: the list with its filters, nothing else. */
function backTo(raw: Raw): string {
  const back = raw._back
  return typeof back === 'string' && /^\/dashboard\/links(?:\?[^#\s]*)?$/.test(back)
    ? back
    : '/dashboard/links'
}

/** The list page to go back to, told what was done (`done=disabled-3`, see `doneNotice`). */
function backWith(raw: Raw, done: Done, count: number): string {
  const url = new URL(backTo(raw), 'http://dashboard.invalid')
  url.searchParams.set('done', `${done}-${count}`)
  return `${url.pathname}${url.search}`
}

function idsOf(raw: Raw): number[] {
  const given = raw.ids
  const list = Array.isArray(given) ? given : typeof given === 'string' ? [given] : []
  return list
    .filter((v): v is string => typeof v === 'string' && /^[1-9]\d{0,15}$/.test(v))
    .map(Number)
    .filter(Number.isSafeInteger)
}

export function linkRoutes(app: FastifyInstance, options: LinkRouteOptions): void {
  const { services } = options
  const links = services.links
  const defaultDomainName = parseDomainName(options.config.publicUrl.origin)?.name ?? ''

  async function defaultDomainId(): Promise<number | null> {
    return (await services.domains.findByName(defaultDomainName))?.id ?? null
  }

  async function choices(userId: number): Promise<LinkChoices> {
    const all = { page: 1, perPage: 100, sort: 'asc' as const }
    const [domains, spaces, pixels] = await Promise.all([
      services.domains.list(userId, { sortBy: 'name' }, all),
      services.spaces.list(userId, { sortBy: 'name' }, all),
      services.pixels.list(userId, { sortBy: 'name' }, all),
    ])
    return {
      domains: domains.rows.map((d) => ({ id: d.id, name: d.name })),
      spaces: spaces.rows.map((s) => ({ id: s.id, name: s.name })),
      pixels: pixels.rows.map((p) => ({ id: p.id, name: p.name, type: p.type })),
    }
  }

  async function record(userId: number, id: number): Promise<LinkRecord> {
    const row = await links.get(userId, id)
    return (await presentLinks(services.presenter, userId, [row]))[0]!
  }

  interface FormExtra {
    link?: LinkRecord
    errors?: Record<string, string[]>
    notice?: string | null
    focus?: FocusHint
  }

  async function formInput(
    request: FastifyRequest,
    values: LinkFormValues,
    extra: FormExtra,
  ): Promise<LinkFormInput> {
    const user = options.user(request)
    return {
      values,
      errors: extra.errors ?? {},
      choices: await choices(user.id),
      timeZone: user.timezone,
      ...(extra.link ? { link: extra.link } : {}),
      notice: extra.notice ?? null,
    }
  }

  async function formPage(
    request: FastifyRequest,
    values: LinkFormValues,
    extra: FormExtra = {},
  ): Promise<RenderedPage> {
    const input = await formInput(request, values, extra)
    return linkFormPage(options.viewer(request), input, extra.focus ?? null)
  }

  /**
   * A row button's press: the same form with a row more or less, nothing saved. htmx asks
   * for the targeting section alone (see `targetingFragment`); a plain form gets the page.
   */
  async function rowChange(
    request: FastifyRequest,
    reply: FastifyReply,
    values: LinkFormValues,
    action: RowAction,
    link?: LinkRecord,
  ): Promise<FastifyReply> {
    const next = applyRowAction(values, action)
    const focus: FocusHint =
      'add' in action
        ? { list: action.add, row: next[action.add].length - 1 }
        : { list: action.remove, row: 'add' }
    const extra = { focus, ...(link ? { link } : {}) }
    if (request.headers['hx-request'] === 'true') {
      const fragment = targetingFragment(await formInput(request, next, extra), focus)
      return reply
        .code(200)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('vary', 'HX-Request')
        .send(fragment)
    }
    return send(reply, 200, await formPage(request, next, extra))
  }

  /**
   * The API's validation of a body, for a form: normalised as a body is (empty text is
   * "empty", index objects are lists), empty values of fields that cannot be empty reported as
   * required, then the route's schema with the API's strict coercion, collecting every message.
   */
  function validate(
    request: FastifyRequest,
    schema: TSchema,
    input: Raw,
  ): { body: LinkInput; errors: FieldErrors } {
    const body = normalise(input) as Raw
    const nulls = nullTaker(schema)(body)
    const check = request.compileValidationSchema(schema as unknown as Raw)
    check(body)
    const issues = (check.errors ?? []) as unknown as SchemaIssue[]
    return { body: body as LinkInput, errors: bodyErrors(body, issues, nulls) }
  }

  const formRoute = { schema: { hide: true }, bodyLimit: BODY_LIMIT }

  app.get('/links/new', { schema: { hide: true } }, async (request, reply) =>
    send(reply, 200, await formPage(request, newLinkValues(await defaultDomainId()))),
  )

  app.post('/links/new', formRoute, async (request, reply) => {
    const user = options.user(request)
    const raw = bodyOf(request)
    const values = formValues(raw)
    const action = rowAction(raw)
    if (action) return rowChange(request, reply, values, action)
    const { body, errors } = validate(request, LinkCreateBody, apiInput(values, { edit: false }))
    try {
      const row = await links.create(user.id, body, errors, await defaultDomainId())
      return seeOther(reply, `/dashboard/links/${row.id}?created`)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      return send(reply, 422, await formPage(request, values, { errors: error.fields }))
    }
  })

  app.get('/links/:id', { schema: { hide: true } }, async (request, reply) => {
    const user = options.user(request)
    const link = await record(user.id, idParam(request))
    const query = request.query as Raw
    const notice =
      query.created !== undefined
        ? 'The link was created:'
        : query.saved !== undefined
          ? 'The changes were saved:'
          : null
    return send(
      reply,
      200,
      await formPage(request, recordValues(link, user.timezone), { link, notice }),
    )
  })

  app.post('/links/:id', formRoute, async (request, reply) => {
    const user = options.user(request)
    const link = await record(user.id, idParam(request))
    const raw = bodyOf(request)
    const values = { ...formValues(raw), domain_id: String(link.domain.id) }
    const action = rowAction(raw)
    if (action) return rowChange(request, reply, values, action, link)
    const input = apiInput(values, { edit: true, title: link.title })
    const { body, errors } = validate(request, LinkUpdateBody, input)
    try {
      await links.update(user.id, link.id, body, errors)
      return seeOther(reply, `/dashboard/links/${link.id}?saved`)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      return send(reply, 422, await formPage(request, values, { link, errors: error.fields }))
    }
  })

  for (const [path, disabled] of [
    ['disable', 1],
    ['enable', 0],
  ] as const) {
    app.post(`/links/:id/${path}`, { schema: { hide: true } }, async (request, reply) => {
      const user = options.user(request)
      await links.update(user.id, idParam(request), { disabled })
      return seeOther(reply, backWith(bodyOf(request), `${path}d`, 1))
    })
  }

  app.get('/links/:id/delete', { schema: { hide: true } }, async (request, reply) => {
    const link = await record(options.user(request).id, idParam(request))
    return send(reply, 200, deleteConfirmPage(options.viewer(request), link))
  })

  app.post('/links/:id/delete', { schema: { hide: true } }, async (request, reply) => {
    await links.delete(options.user(request).id, idParam(request))
    return seeOther(reply, backWith(bodyOf(request), 'deleted', 1))
  })

  /**
   * `ids[]` and `action` (+ `space_id` to move). Ids that are not the user's links are ignored,
   * as a link deleted meanwhile would be; the rest change in one transaction, each raising its
   * own event. A delete asks first: it answers a confirmation page unless `confirm=1` is sent.
   */
  app.post('/links/bulk', { schema: { hide: true } }, async (request, reply) => {
    const user = options.user(request)
    const raw = bodyOf(request)
    const ids = idsOf(raw).slice(0, MAX_BULK)
    const back = backTo(raw)
    const action = BULK_ACTIONS.find((a) => a === raw.action)
    const viewer = options.viewer(request)
    const problem = (message: string) =>
      send(reply, 422, bulkConfirmPage(viewer, { back, problem: message, links: [] }))
    if (action === undefined) return problem('Choose what to do with the selected links.')
    if (ids.length === 0) return problem('Select at least one link.')
    if (action === 'delete' && raw.confirm !== '1') {
      const rows = await Promise.all(ids.map((id) => links.get(user.id, id).catch(() => null)))
      const own = rows.filter((r) => r !== null)
      const records = await presentLinks(services.presenter, user.id, own)
      if (records.length === 0) return problem('None of the selected links exist any more.')
      return send(reply, 200, bulkConfirmPage(viewer, { back, links: records }))
    }
    let changed: LinkRow[]
    try {
      changed = await bulk(user.id, action, ids, raw.space_id)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      return problem(Object.values(error.fields).flat().join(' '))
    }
    const done: Done = action === 'move' ? 'moved' : `${action}d`
    return seeOther(reply, backWith(raw, done, changed.length))
  })

  async function bulk(
    userId: number,
    action: BulkAction,
    ids: number[],
    space: unknown,
  ): Promise<LinkRow[]> {
    if (action === 'delete') return links.deleteMany(userId, ids)
    if (action === 'move') {
      // An empty space takes the links out of their spaces; a space that is not the user's is
      // refused by the service with the API's message.
      const text = typeof space === 'string' ? space : ''
      if (text !== '' && !/^[1-9]\d{0,15}$/.test(text)) {
        throw new ValidationError({ space_id: ['The space id field must be an integer.'] })
      }
      return links.updateMany(userId, ids, { space_id: text === '' ? null : Number(text) })
    }
    return links.updateMany(userId, ids, { disabled: action === 'disable' ? 1 : 0 })
  }
}
