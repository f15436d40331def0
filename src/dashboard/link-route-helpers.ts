/** Small pieces shared by the dashboard's link routes (form routes and action routes). */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { DashboardServices } from './context.js'
import type { Config } from '../config.js'
import type { UserRow } from '../db/types.js'
import { normalise } from '../http/body.js'
import { longListTaker, type ObjectSchema } from '../http/list-bounds.js'
import { bodyErrors, collectIssues, nullTaker, type SchemaIssue } from '../http/validation.js'
import type { LinkInput, LinkRecord } from '../links/schema.js'
import type { RenderedPage } from '../pages/layout.js'
import type { FieldErrors, FieldMessages } from '../shared/errors.js'
import { NotFoundError } from '../shared/errors.js'
import type { TSchema } from '../shared/schema.js'
import type { Viewer } from './shell.js'

export interface LinkRouteOptions {
  config: Config
  services: DashboardServices
  user(request: FastifyRequest): UserRow
  viewer(request: FastifyRequest): Viewer
}

export type Raw = Record<string, unknown>

export function send(reply: FastifyReply, status: number, page: RenderedPage): FastifyReply {
  return reply.code(status).headers(page.headers).send(page.html)
}

export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('cache-control', 'no-store').header('location', location).send()
}

export function bodyOf(request: FastifyRequest): Raw {
  const body = request.body
  return typeof body === 'object' && body !== null ? (body as Raw) : {}
}

/** A path id: decimal digits naming a safe integer, else no such link. */
export function idParam(request: FastifyRequest): number {
  const text = (request.params as { id: string }).id
  const id = /^[1-9]\d{0,15}$/.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(id)) throw new NotFoundError()
  return id
}

/** The user's link as the API shows it; another user's or an unknown id is not found. */
export async function linkRecord(
  services: DashboardServices,
  userId: number,
  id: number,
): Promise<LinkRecord> {
  const row = await services.links.get(userId, id)
  return (await services.presenter.present(userId, [row]))[0]!
}

/**
 * The API's validation of a body, for a form: normalised as a body is (empty text is
 * "empty", index objects are lists), empty values of fields that cannot be empty reported as
 * required, then the route's schema with the API's strict coercion, collecting every message.
 * What failed is removed from the body, so the service checks only the rest (as the API does).
 */
export function validateAsApi(
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

/**
 * The API's messages for the lists of a form over their bound (the schema's `maxItems`), as
 * `validateAsApi` would report them: for the row buttons, which re-render the form without
 * validating it.
 */
export function longListMessages(schema: TSchema, input: Raw): FieldMessages {
  const body = normalise(input) as Raw
  return collectIssues(longListTaker(schema as ObjectSchema)(body)).messages
}

/** The user's tag names, most used first (at most 100): the suggestions of the tag fields. */
export async function tagNamesOf(services: DashboardServices, userId: number): Promise<string[]> {
  const found = await services.tags.list(
    userId,
    { sortBy: 'links' },
    { page: 1, perPage: 100, sort: 'desc' },
  )
  return found.rows.map((t) => t.name)
}
