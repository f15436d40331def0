/**
 * Strict input coercion, run just before schema validation: form and query values arrive as
 * text, and only text that spells a value exactly becomes that value. An integer is written in
 * decimal digits (an optional sign, no leading zeros, no exponent, fraction, hex or spaces);
 * anything else stays as it came and fails validation with a message naming its field. A
 * scalar given for a list becomes a one-item list (`pixel_ids=3`); a list or an object given for
 * a scalar is left alone, and so is reported (`url[]=…` is "must be a string"). JSON numbers
 * that are not finite (`1e400` parses as Infinity) are turned back into text, so they fail too.
 * A value of the `http-url` or `destination-url` format is stored and shown as the URL parser
 * reads it, which is where a redirect to it goes (see `normalHttpUrl`, `normalDestinationUrl`).
 */
import type AjvCompiler from '@fastify/ajv-compiler'
import { concerns, longListTaker } from './list-bounds.js'
import { normalDestinationUrl } from '../shared/destination-url.js'
import { normalHttpUrl } from '../shared/formats.js'

type JsonSchema = {
  type?: string | string[]
  format?: string
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  maxItems?: number
}

const INTEGER = /^[+-]?(?:0|[1-9]\d*)$/

function typesOf(schema: JsonSchema): readonly string[] {
  return schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]
}

function toInteger(value: unknown): unknown {
  if (typeof value === 'string' && INTEGER.test(value)) {
    const n = Number(value)
    return Number.isFinite(n) ? n + 0 : value
  }
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value)
  return value
}

function toText(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : value
  return value
}

/** The value, coerced to what `schema` asks for where its text spells that exactly. */
export function coerceValue(schema: JsonSchema, value: unknown): unknown {
  if (value === null || value === undefined) return value
  const types = typesOf(schema)
  if (types.includes('array')) {
    const list = Array.isArray(value) ? value : typeof value === 'object' ? value : [value]
    if (Array.isArray(list) && schema.items) {
      const items = schema.items
      return list.map((item: unknown) => coerceValue(items, item))
    }
    return list
  }
  if (types.includes('object')) {
    if (typeof value === 'object' && !Array.isArray(value) && schema.properties) {
      coerceProperties(schema, value as Record<string, unknown>)
    }
    return value
  }
  if (types.includes('integer')) return toInteger(value)
  if (types.includes('string')) {
    const text = toText(value)
    if (typeof text !== 'string') return text
    if (schema.format === 'http-url') return normalHttpUrl(text)
    return schema.format === 'destination-url' ? normalDestinationUrl(text) : text
  }
  return value
}

/** Coerces the properties of an object in place (the object Fastify goes on to validate). */
export function coerceProperties(schema: JsonSchema, target: Record<string, unknown>): void {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!Object.hasOwn(target, name)) continue
    target[name] = coerceValue(property, target[name])
  }
}

type ValidatorFactory = ReturnType<typeof AjvCompiler>

/**
 * Wraps Fastify's own validator factory so that every compiled validator takes out the lists
 * over their bound (see list-bounds.ts) and coerces strictly (see above) before the schema is
 * checked; the validator itself runs with type coercion off.
 * (Fastify hands the compiler a route definition, `{ schema, method, url, httpPart }`, although
 * the factory's declared type names only the schema.)
 */
export function strictlyCoercing(factory: ValidatorFactory): ValidatorFactory {
  return (externalSchemas, options) => {
    const build = factory(externalSchemas, options)
    return (route) => {
      const validate = build(route)
      const schema = (route as unknown as { schema: JsonSchema }).schema
      const takeLongLists = longListTaker(schema)
      const wrapped = (data: unknown) => {
        if (data === null || typeof data !== 'object' || Array.isArray(data)) {
          const result = validate(data)
          wrapped.errors = validate.errors
          return result
        }
        const input = data as Record<string, unknown>
        const long = takeLongLists(input)
        coerceProperties(schema, input)
        const result = validate(data)
        // A list taken out is reported once, by its bound, and by nothing else.
        const others = (validate.errors ?? []).filter(
          (issue) => !long.some((taken) => concerns(issue, taken.instancePath.slice(1))),
        )
        const errors = [...long, ...others]
        wrapped.errors = errors.length > 0 ? (errors as typeof validate.errors) : null
        return result && long.length === 0
      }
      wrapped.errors = validate.errors
      return wrapped as unknown as typeof validate
    }
  }
}
