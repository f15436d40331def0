/**
 * Older parameter names that phpShort clients still send (phpShort 2.x: `space` for `space_id`,
 * `by` for `search_by`, `sort=max|min` …), turned into ours before validation. A name of ours
 * given too wins, and the other is dropped. Validation messages name the field as the client
 * sent it (`space`, not `space_id`).
 */
import type { FastifyRequest } from 'fastify'

export interface ParameterAliases {
  /** Old name → our name. */
  names?: Readonly<Record<string, string>>
  /** Rewrites of the values (after the renames), e.g. `sort=max` → `sort_by=clicks&sort=desc`. */
  values?: (input: Record<string, unknown>) => void
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Our field name → the name the client sent, for the fields renamed by an alias. */
    aliasedFields?: Map<string, string>
  }
}

function rename(request: FastifyRequest, input: unknown, aliases: ParameterAliases): void {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return
  const fields = input as Record<string, unknown>
  for (const [old, ours] of Object.entries(aliases.names ?? {})) {
    if (!Object.hasOwn(fields, old)) continue
    if (!Object.hasOwn(fields, ours)) {
      fields[ours] = fields[old]
      ;(request.aliasedFields ??= new Map()).set(ours, old)
    }
    Reflect.deleteProperty(fields, old)
  }
  aliases.values?.(fields)
}

/** A preValidation hook that applies `aliases` to the body (POST, PUT, PATCH) or the query. */
export function acceptAliases(part: 'body' | 'query', aliases: ParameterAliases) {
  return async (request: FastifyRequest): Promise<void> => {
    rename(request, part === 'body' ? request.body : request.query, aliases)
  }
}

/** A field name as the client sent it: `space_id.0` → `space.0` when `space` was sent. */
export function clientFieldName(request: FastifyRequest, field: string): string {
  const renamed = request.aliasedFields
  if (!renamed) return field
  const dot = field.indexOf('.')
  const top = dot === -1 ? field : field.slice(0, dot)
  const old = renamed.get(top)
  return old === undefined ? field : old + field.slice(top.length)
}

/** phpShort 2.x sorted lists with `sort=max` and `sort=min`: most and fewest clicks first. */
export function clickSortAliases(fields: Record<string, unknown>): void {
  if (fields.sort === 'max' || fields.sort === 'min') {
    fields.sort_by = 'clicks'
    fields.sort = fields.sort === 'max' ? 'desc' : 'asc'
  }
}

/** phpShort 2.x names of the list parameters (`by` for `search_by` is added for every list). */
export const LINK_LIST_ALIASES: ParameterAliases = {
  names: { space: 'space_id', domain: 'domain_id' },
  values: clickSortAliases,
}
