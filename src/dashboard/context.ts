/**
 * What the dashboard's route files share: who is signed in, how a page or a redirect is sent,
 * and how a posted form becomes the API's input. Route files other than routes.ts receive a
 * `DashboardContext` and register into the signed-in `/dashboard` scope.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { WebhookService } from '../webhooks/service.js'
import type { Config } from '../config.js'
import type { UserRow } from '../db/types.js'
import type { RenderedPage } from '../pages/layout.js'
import type { DomainService } from '../domains/service.js'
import type { ImportService } from '../imports/service.js'
import type { QrCodes } from '../links/qr-codes.js'
import type { LinkPresenter } from '../links/record.js'
import type { LinkService } from '../links/service.js'
import type { PixelService } from '../pixels/service.js'
import type { SessionService } from '../sessions/service.js'
import type { TagService } from '../tags/service.js'
import type { SpaceService } from '../spaces/service.js'
import type { AccountOverviewService } from '../stats/account-overview.js'
import type { StatsService } from '../stats/service.js'
import type { AccountService } from '../users/accounts.js'
import type { UserService } from '../users/service.js'
import type { UtmTemplateService } from '../utm/service.js'
import type { Session } from '../sessions/service.js'
import type { TObject } from 'typebox'
import { rejectNulls, schemaErrors } from '../http/validation.js'
import type { FieldErrors } from '../shared/errors.js'
import { Type } from '../shared/schema.js'
import type { Viewer } from './shell.js'

export interface SignedIn {
  session: Session
  user: UserRow
}

/** The services the dashboard's pages use. */
export interface DashboardServices {
  users: UserService
  accounts: AccountService
  sessions: SessionService
  links: LinkService
  presenter: LinkPresenter
  qrCodes: QrCodes
  overview: AccountOverviewService
  pixels: PixelService
  spaces: SpaceService
  tags: TagService
  domains: DomainService
  stats: StatsService
  imports: ImportService
  webhooks: WebhookService
  utmTemplates: UtmTemplateService
}

export interface DashboardContext {
  config: Config
  services: DashboardServices
  /** The person the scope's preHandler found (every route of the scope has one). */
  signedInOf(request: FastifyRequest): SignedIn
  viewerOf(who: SignedIn): Viewer
}

export type Form = Record<string, string | undefined>

export function send(reply: FastifyReply, status: number, page: RenderedPage): FastifyReply {
  return reply.code(status).headers(page.headers).send(page.html)
}

export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('cache-control', 'no-store').header('location', location).send()
}

/** A posted field as text ('' when it is missing or not text). */
export function field(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return ''
  const value = (body as Form)[name]
  return typeof value === 'string' ? value : ''
}

/** The id in a dashboard path, or null when it cannot name anything (answered as not found). */
export function pathId(request: FastifyRequest): number | null {
  const text = (request.params as { id?: string }).id ?? ''
  return /^[1-9][0-9]{0,14}$/.test(text) ? Number(text) : null
}

/**
 * An API body schema as a dashboard form's schema: the same fields and rules, plus the `_csrf`
 * every form carries (a schema without additional properties would otherwise strip it before
 * the scope's CSRF check reads it).
 */
export function formSchema(schema: TObject): TObject {
  return Type.Object(
    { ...schema.properties, _csrf: Type.Optional(Type.String()) },
    { additionalProperties: false },
  )
}

const typedForms = new WeakMap<FastifyRequest, Form>()

/**
 * A preValidation hook for a form posted to an API schema: keeps what was typed (to show it
 * again if anything fails) and turns empty fields into empty values (null), as the API's body
 * parser does, so that `rejectNulls` and the schema report them with the API's messages.
 */
export async function formAsApiBody(request: FastifyRequest): Promise<void> {
  const body = request.body
  if (typeof body !== 'object' || body === null) return
  const typed: Form = {}
  const input: Record<string, string | null> = {}
  for (const [name, value] of Object.entries(body as Form)) {
    if (typeof value !== 'string') continue
    typed[name] = value
    input[name] = value === '' && name !== '_csrf' ? null : value
  }
  typedForms.set(request, typed)
  request.body = input
}

/** What the person typed in the form of this request (see `formAsApiBody`). */
export function typedForm(request: FastifyRequest): Form {
  return typedForms.get(request) ?? {}
}

/**
 * The options of a POST route whose form is an API-style body: the same schema (plus `_csrf`),
 * validated with `attachValidation` so that the handler reports every failing field at once.
 */
export function formRoute(schema: TObject) {
  return {
    attachValidation: true,
    preValidation: [formAsApiBody, rejectNulls(schema)],
    schema: { hide: true, body: formSchema(schema) },
  }
}

/**
 * The input of a `formRoute` request as the API's services take it (without `_csrf`), and the
 * schema's messages so far, for the service to add its own to.
 */
export function formInput<T>(request: FastifyRequest): { body: T; errors: FieldErrors } {
  const errors = schemaErrors(request)
  const body = { ...(request.body as Record<string, unknown>) }
  Reflect.deleteProperty(body, '_csrf')
  return { body: body as T, errors }
}

/** A preValidation hook for a GET form: it sends its empty fields too, and an empty field is no filter. */
export async function dropEmptyFields(request: FastifyRequest): Promise<void> {
  const query = request.query
  if (typeof query !== 'object' || query === null) return
  for (const [name, value] of Object.entries(query))
    if (value === '') Reflect.deleteProperty(query, name)
}
