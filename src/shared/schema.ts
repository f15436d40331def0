/**
 * Small builders over TypeBox for the shapes the API uses: nullable scalars expressed as
 * JSON Schema type arrays (so form values coerce cleanly), string and integer enums, and
 * the `{data,status}` envelopes. These schemas are the single source of the TypeScript
 * types, the request validation, the response serialisation and the OpenAPI document.
 */
import Type, { type Static, type TSchema } from 'typebox'
import type { FormatName } from './formats.js'

export { Type, type Static, type TSchema }

interface SchemaOptions {
  description?: string
  examples?: unknown[]
  deprecated?: boolean
}

export function Nullable<T extends TSchema>(schema: T) {
  const raw = schema as unknown as { type: string; enum?: unknown[] }
  return Type.Unsafe<Static<T> | null>({
    ...raw,
    type: [raw.type, 'null'],
    ...(raw.enum ? { enum: [...raw.enum, null] } : {}),
  })
}

export function StringEnum<const V extends readonly string[]>(values: V, opts: SchemaOptions = {}) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...opts })
}

export function IntegerEnum<const V extends readonly number[]>(
  values: V,
  opts: SchemaOptions = {},
) {
  return Type.Unsafe<V[number]>({ type: 'integer', enum: [...values], ...opts })
}

export function FormattedString(
  format: FormatName,
  opts: SchemaOptions & { maxLength?: number; minLength?: number } = {},
) {
  return Type.String({ format, ...opts })
}

export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
export const Timestamp = Type.String({
  format: 'date-time',
  examples: ['2026-05-01T10:00:00.000000Z'],
})

export const IdParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,15}$' }) })

export function DataEnvelope<T extends TSchema>(data: T) {
  return Type.Object({ data, status: Type.Integer({ examples: [200] }) })
}

export const DeletedEnvelope = Type.Object({
  id: Type.Integer(),
  object: Type.String(),
  deleted: Type.Boolean(),
  status: Type.Integer({ examples: [200] }),
})

const PageLinks = Type.Object({
  first: Type.String(),
  last: Type.String(),
  prev: Nullable(Type.String()),
  next: Nullable(Type.String()),
})

const PageMeta = Type.Object({
  current_page: Type.Integer(),
  from: Nullable(Type.Integer()),
  last_page: Type.Integer(),
  path: Type.String(),
  per_page: Type.Integer(),
  to: Nullable(Type.Integer()),
  total: Type.Integer(),
})

export function PageEnvelope<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    links: PageLinks,
    meta: PageMeta,
    status: Type.Integer({ examples: [200] }),
  })
}

export const ErrorBody = Type.Object({
  message: Type.String(),
  status: Type.Integer(),
})

export const ValidationErrorBody = Type.Object({
  message: Type.Record(Type.String(), Type.Array(Type.String())),
  status: Type.Integer({ examples: [422] }),
})

export const PER_PAGE = [10, 25, 50, 100] as const

/** Query parameters every list shares. */
export function ListQuery<const S extends readonly string[], const B extends readonly string[]>(
  sortBy: S,
  searchBy: B,
) {
  return {
    search: Type.Optional(Type.String({ maxLength: 255, description: 'Search query' })),
    search_by: Type.Optional(StringEnum(searchBy, { description: `Default ${searchBy[0]}` })),
    by: Type.Optional(
      StringEnum(searchBy, { description: 'phpShort 2.x name of `search_by`.', deprecated: true }),
    ),
    sort_by: Type.Optional(StringEnum(sortBy, { description: `Default ${sortBy[0]}` })),
    sort: Type.Optional(
      StringEnum(['desc', 'asc'] as const, {
        description: sortBy.includes('clicks' as S[number])
          ? 'Default desc. phpShort 2.x `max` and `min` mean `sort_by=clicks` descending and ascending.'
          : 'Default desc',
      }),
    ),
    per_page: Type.Optional(IntegerEnum(PER_PAGE, { description: 'Default 10' })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'From 1' })),
  }
}
