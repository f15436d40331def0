/**
 * The dashboard's link screens: the create and edit forms, validated exactly as the API
 * validates a body (the same schema, the same coercion, the same service rules and messages),
 * and with them the list's row and bulk actions (link-action-routes.ts). Registered inside the
 * signed-in `/dashboard` scope, whose preHandler has already checked the session and the CSRF
 * token of every POST.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { BODY_LIMIT } from '../http/body.js'
import { LinkCreateBody, LinkUpdateBody, type LinkRecord } from '../links/schema.js'
import type { RenderedPage } from '../pages/layout.js'
import { ownDomainOf } from '../shared/domain-name.js'
import { ValidationError, type FieldErrors } from '../shared/errors.js'
import { zonedToUtc } from '../shared/time.js'
import { linkActionRoutes } from './link-action-routes.js'
import { withScheme } from './shorten-box.js'
import { shortenRoutes } from './shorten-routes.js'
import { sentUtm, templateChoice, utmAction, withUtm, type UtmFormState } from './link-utm-form.js'
import { utmStep } from './link-utm-routes.js'
import { duplicateRoute } from './link-duplicate.js'

const PAST_EXPIRY =
  'This date and time have passed: the link would expire as soon as it is saved. ' +
  'Choose a later date, or tick “Yes, save it with this date” below.'
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
import { applyRuleAction, ruleAction, type RuleAction } from './link-rules-form.js'
import {
  linkFormPage,
  rulesFragment,
  targetingFragment,
  type FocusHint,
  type LinkChoices,
  type LinkFormInput,
} from './link-form-page.js'
import {
  bodyOf,
  idParam,
  linkRecord,
  longListMessages,
  send,
  seeOther,
  tagNamesOf,
  validateAsApi,
  type LinkRouteOptions,
  type Raw,
} from './link-route-helpers.js'

export type { LinkRouteOptions } from './link-route-helpers.js'

export function linkRoutes(app: FastifyInstance, options: LinkRouteOptions): void {
  const { services } = options
  const links = services.links
  const defaultDomainName = ownDomainOf(options.config.publicUrl).name

  async function defaultDomainId(): Promise<number | null> {
    return (await services.domains.findByName(defaultDomainName))?.id ?? null
  }

  async function choices(userId: number): Promise<LinkChoices> {
    const all = { page: 1, perPage: 100, sort: 'asc' as const }
    const [domains, spaces, pixels, tags] = await Promise.all([
      services.domains.list(userId, { sortBy: 'name' }, all),
      services.spaces.list(userId, { sortBy: 'name' }, all),
      services.pixels.list(userId, { sortBy: 'name' }, all),
      tagNamesOf(services, userId),
    ])
    return {
      domains: domains.rows.map((d) => ({ id: d.id, name: d.name })),
      spaces: spaces.rows.map((s) => ({ id: s.id, name: s.name })),
      pixels: pixels.rows.map((p) => ({ id: p.id, name: p.name, type: p.type })),
      tags,
    }
  }

  interface FormExtra {
    link?: LinkRecord
    errors?: Record<string, string[]>
    notice?: string | null
    focus?: FocusHint
    pastExpiry?: boolean
    rulesOpen?: boolean
    utm?: Partial<UtmFormState>
  }

  /**
   * Whether the form sets an expiry that has already passed and was not confirmed
   * (`_past_expiry=1`); an unchanged stored expiry is not asked about again.
   */
  function unconfirmedPastExpiry(
    request: FastifyRequest,
    raw: Raw,
    values: LinkFormValues,
    errors: FieldErrors,
    link?: LinkRecord,
  ): boolean {
    if (raw._past_expiry === '1' || errors.has('expiration_date') || errors.has('expiration_time'))
      return false
    const { expiration_date: date, expiration_time: time } = values
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)) return false
    const at = zonedToUtc(date, time, options.user(request).timezone)
    if (!Number.isFinite(at) || at > services.stats.now()) return false
    return !(link?.ends_at && Date.parse(link.ends_at) === at)
  }

  /** The form again (422), asking to confirm a past expiry, with the other messages too. */
  async function askPastExpiry(
    request: FastifyRequest,
    reply: FastifyReply,
    values: LinkFormValues,
    errors: FieldErrors,
    link?: LinkRecord,
  ): Promise<FastifyReply> {
    const messages = { ...errors.messages, expiration_date: [PAST_EXPIRY] }
    const extra = { errors: messages, pastExpiry: true, ...(link ? { link } : {}) }
    return send(reply, 422, await formPage(request, values, extra))
  }

  async function formInput(
    request: FastifyRequest,
    values: LinkFormValues,
    extra: FormExtra,
  ): Promise<LinkFormInput> {
    const user = options.user(request)
    const templates = await services.utmTemplates.list(
      user.id,
      { sortBy: 'name' },
      { page: 1, perPage: 100, sort: 'asc' },
    )
    const utm: UtmFormState = {
      templates: templates.rows.map(templateChoice),
      chosen: '',
      templateName: '',
      errors: {},
      notice: null,
      ...extra.utm,
    }
    return {
      values,
      utm,
      errors: extra.errors ?? {},
      choices: await choices(user.id),
      timeZone: user.timezone,
      ...(extra.link ? { link: extra.link } : {}),
      notice: extra.notice ?? null,
      pastExpiry: extra.pastExpiry ?? false,
      rulesOpen: extra.rulesOpen ?? false,
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
      return sendFragment(reply, targetingFragment(await formInput(request, next, extra), focus))
    }
    return send(reply, 200, await formPage(request, next, extra))
  }

  /** A button of the rules editor: the same form with its rules changed, nothing saved. */
  async function rulesChange(
    request: FastifyRequest,
    reply: FastifyReply,
    values: LinkFormValues,
    action: RuleAction,
    link?: LinkRecord,
  ): Promise<FastifyReply> {
    const next = { ...values, rules: applyRuleAction(values.rules, action) }
    const input = await formInput(request, next, { rulesOpen: true, ...(link ? { link } : {}) })
    if (request.headers['hx-request'] === 'true') return sendFragment(reply, rulesFragment(input))
    return send(reply, 200, linkFormPage(options.viewer(request), input))
  }

  function sendFragment(reply: FastifyReply, fragment: string): FastifyReply {
    return reply
      .code(200)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('vary', 'HX-Request')
      .send(fragment)
  }

  /** The UTM section's buttons answer the same form (link-utm-routes.ts). */
  function utmSteps(request: FastifyRequest, link?: LinkRecord) {
    return {
      templates: services.utmTemplates,
      userId: options.user(request).id,
      page: (values: LinkFormValues, utm: Partial<UtmFormState>) =>
        formPage(request, values, { utm, ...(link ? { link } : {}) }),
    }
  }

  const formRoute = { schema: { hide: true }, bodyLimit: BODY_LIMIT }

  // `?url=` fills the destination (from the shorten box's "all options" link).
  app.get('/links/new', { schema: { hide: true } }, async (request, reply) => {
    const given = (request.query as Raw).url
    const url = typeof given === 'string' ? given.slice(0, 4096) : ''
    const values = { ...newLinkValues(await defaultDomainId()), url }
    return send(reply, 200, await formPage(request, values))
  })

  app.post('/links/new', formRoute, async (request, reply) => {
    const user = options.user(request)
    const raw = bodyOf(request)
    const typed = formValues(raw)
    const values = { ...typed, url: withUtm(withScheme(typed.url), sentUtm(raw)) }
    const utm = utmAction(raw)
    if (utm) return utmStep(request, reply, utmSteps(request), utm, raw, values)
    const input = apiInput(values, { edit: false })
    const action = rowAction(raw)
    if (action) {
      const long = longListMessages(LinkCreateBody, input)
      if (Object.keys(long).length > 0)
        return send(reply, 422, await formPage(request, values, { errors: long }))
      return rowChange(request, reply, values, action)
    }
    const rules = ruleAction(raw)
    if (rules) return rulesChange(request, reply, values, rules)
    const { body, errors } = validateAsApi(request, LinkCreateBody, input)
    if (unconfirmedPastExpiry(request, raw, values, errors))
      return askPastExpiry(request, reply, values, errors)
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
    const link = await linkRecord(services, user.id, idParam(request))
    const query = request.query as Raw
    const notice =
      query.created !== undefined
        ? 'The link was created:'
        : query.saved !== undefined
          ? 'The changes were saved:'
          : query.duplicated !== undefined
            ? 'The link was duplicated, with every setting and a new alias:'
            : null
    return send(
      reply,
      200,
      await formPage(request, recordValues(link, user.timezone), { link, notice }),
    )
  })

  app.post('/links/:id', formRoute, async (request, reply) => {
    const user = options.user(request)
    const link = await linkRecord(services, user.id, idParam(request))
    const raw = bodyOf(request)
    const typed = formValues(raw)
    const url = withUtm(withScheme(typed.url), sentUtm(raw))
    const values = { ...typed, url, domain_id: String(link.domain.id) }
    const utm = utmAction(raw)
    if (utm) return utmStep(request, reply, utmSteps(request, link), utm, raw, values)
    const input = apiInput(values, { edit: true, title: link.title })
    const action = rowAction(raw)
    if (action) {
      const long = longListMessages(LinkUpdateBody, input)
      if (Object.keys(long).length > 0)
        return send(reply, 422, await formPage(request, values, { link, errors: long }))
      return rowChange(request, reply, values, action, link)
    }
    const rules = ruleAction(raw)
    if (rules) return rulesChange(request, reply, values, rules, link)
    const { body, errors } = validateAsApi(request, LinkUpdateBody, input)
    if (unconfirmedPastExpiry(request, raw, values, errors, link))
      return askPastExpiry(request, reply, values, errors, link)
    try {
      await links.update(user.id, link.id, body, errors)
      return seeOther(reply, `/dashboard/links/${link.id}?saved`)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      return send(reply, 422, await formPage(request, values, { link, errors: error.fields }))
    }
  })

  linkActionRoutes(app, options)
  duplicateRoute(app, options)
  shortenRoutes(app, options, defaultDomainId)
}
