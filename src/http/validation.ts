/**
 * Turns schema validation failures into the contract's per-field messages
 * (`{"url":["The url field is required."]}`), with dotted names for nested fields.
 * Routes that take a body validate with `attachValidation`, so the service can add its own
 * rules for the fields that passed and every failing field is reported in one answer.
 */
import type { FastifyRequest } from 'fastify'
import { FieldErrors, NotFoundError } from '../shared/errors.js'
import { FORMAT_MESSAGES, type FormatName } from '../shared/formats.js'

export interface SchemaIssue {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  data?: unknown
  message?: string
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  array: 'an array',
  object: 'an array',
  boolean: 'true or false',
}

export function fieldName(issue: SchemaIssue): string {
  const path = issue.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (issue.keyword === 'required') path.push(String(issue.params.missingProperty))
  return path.join('.')
}

export function messageFor(issue: SchemaIssue, field: string): string | null {
  const a = field.replace(/_/g, ' ')
  const p = issue.params
  switch (issue.keyword) {
    case 'required':
      return `The ${a} field is required.`
    case 'type': {
      if (issue.data === null) return `The ${a} field is required.`
      const expected = String(p.type).split(',')[0]!
      return `The ${a} field must be ${TYPE_WORDS[expected] ?? expected}.`
    }
    case 'enum':
      return `The selected ${a} is invalid.`
    case 'maxLength':
      return `The ${a} field must not be greater than ${String(p.limit)} characters.`
    case 'minLength':
      return `The ${a} field must be at least ${String(p.limit)} characters.`
    case 'maximum':
      return `The ${a} field must not be greater than ${String(p.limit)}.`
    case 'minimum':
      return `The ${a} field must be at least ${String(p.limit)}.`
    case 'minItems':
      return `The ${a} field must have at least ${String(p.limit)} items.`
    case 'maxItems':
      return `The ${a} field must not have more than ${String(p.limit)} items.`
    case 'format': {
      const format = String(p.format) as FormatName
      return FORMAT_MESSAGES[format]?.(a) ?? `The ${a} field format is invalid.`
    }
    case 'pattern':
      return `The ${a} field format is invalid.`
    case 'additionalProperties':
    case 'anyOf':
    case 'oneOf':
    case 'if':
      return null
    default:
      return `The ${a} field is invalid.`
  }
}

export function collectIssues(
  issues: readonly SchemaIssue[],
  errors = new FieldErrors(),
): FieldErrors {
  // A value of the wrong type says all there is to say about its field.
  const wrongType = new Set(issues.filter((i) => i.keyword === 'type').map(fieldName))
  for (const issue of issues) {
    const field = fieldName(issue)
    if (wrongType.has(field) && issue.keyword !== 'type') continue
    const message = messageFor(issue, field)
    if (message !== null && field !== '') errors.add(field, message)
  }
  return errors
}

/**
 * Removes what failed from a body so later rules see only values of the right shape: a failing
 * field, a failing item of a list (left as a hole, so positions keep their numbers), or a
 * failing part of a list entry, however deep (`rules.0.conditions.1.value`).
 */
function removeFailed(body: Record<string, unknown>, issues: readonly SchemaIssue[]): void {
  for (const issue of issues) {
    const path = fieldName(issue).split('.')
    if (!path[0]) continue
    let parent: unknown = body
    for (const part of path.slice(0, -1)) {
      parent = typeof parent === 'object' && parent !== null ? Reflect.get(parent, part) : null
    }
    const last = path[path.length - 1]!
    if (Array.isArray(parent) && /^\d+$/.test(last)) parent[Number(last)] = undefined
    else if (typeof parent === 'object' && parent !== null) Reflect.deleteProperty(parent, last)
    else Reflect.deleteProperty(body, path[0])
  }
}

/**
 * The schema errors of a request validated with `attachValidation`, with what failed removed
 * from the body (see `removeFailed`). Nulls sent for fields that cannot be empty were taken out
 * before validation (see `rejectNulls`) and are reported here as required.
 */
export function schemaErrors(request: FastifyRequest): FieldErrors {
  const failure = request.validationError as
    (Error & { validation?: SchemaIssue[]; validationContext?: string }) | undefined
  // A malformed id in the path names no resource.
  if (failure?.validation && failure.validationContext === 'params') throw new NotFoundError()
  const body = request.body
  return bodyErrors(
    body && typeof body === 'object' ? (body as Record<string, unknown>) : null,
    failure?.validation ?? [],
    request.nullFields ?? [],
  )
}

/**
 * What `schemaErrors` does, for a body validated outside a route's schema (the dashboard's
 * forms): the messages of `issues` and of the empty `nullFields`, with what failed removed.
 */
export function bodyErrors(
  body: Record<string, unknown> | null,
  issues: readonly SchemaIssue[],
  nullFields: readonly string[],
): FieldErrors {
  const errors = new FieldErrors()
  for (const field of nullFields)
    errors.add(field, messageFor({ keyword: 'required', instancePath: '', params: {} }, field)!)
  if (issues.length === 0) return errors
  collectIssues(issues, errors)
  if (body) removeFailed(body, issues)
  return errors
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Top-level fields sent empty although they cannot be (set by `rejectNulls`). */
    nullFields?: string[]
  }
}

/**
 * A preValidation hook for a body schema: an empty value (null) sent for a field whose type does
 * not allow null is taken out and remembered, so it is reported as required instead of being
 * coerced by the validator into "" or 0.
 */
export function rejectNulls(schema: NullableSchema) {
  const take = nullTaker(schema)
  return async (request: FastifyRequest) => {
    const body = request.body as Record<string, unknown> | undefined
    if (!body || typeof body !== 'object') return
    const taken = take(body)
    if (taken.length > 0) (request.nullFields ??= []).push(...taken)
  }
}

type NullableSchema = { properties?: Record<string, { type?: unknown }> }

/** Takes out of a body the nulls sent for fields that cannot be empty, and names them. */
export function nullTaker(schema: NullableSchema): (body: Record<string, unknown>) => string[] {
  const notNullable = Object.entries(schema.properties ?? {})
    .filter(([, property]) => !(Array.isArray(property.type) && property.type.includes('null')))
    .map(([name]) => name)
  return (body) => {
    const taken: string[] = []
    for (const name of notNullable) {
      if (body[name] === null) {
        Reflect.deleteProperty(body, name)
        taken.push(name)
      }
    }
    return taken
  }
}
