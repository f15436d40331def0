/**
 * The field rules of a link that need no storage: targeting lists (half entries, duplicates,
 * empty entries dropped), the expiry instant, and reserved aliases. Each reports into
 * FieldErrors.
 */
import type { FieldErrors } from '../shared/errors.js'
import { randomString } from '../shared/secrets.js'
import { zonedToUtc } from '../shared/time.js'
import type { TargetEntry } from '../db/types.js'

export type { TargetEntry } from '../db/types.js'

type RawEntry = { key?: string | null; value?: string | null }

/**
 * A keyed targeting list as stored: entries with both parts empty are dropped, half an entry
 * and a repeated key are errors. `null` (nothing left) clears the list. A part that already
 * failed validation (and was removed) counts as given, so it is not reported twice; an entry
 * that failed as a whole arrives as a hole and is skipped.
 */
export function keyedList(
  field: string,
  raw: (RawEntry | undefined)[],
  errors: FieldErrors,
): TargetEntry[] | null {
  const seen = new Set<string>()
  const out: TargetEntry[] = []
  raw.forEach((entry, i) => {
    if (entry === undefined) return
    const at = `${field}.${i}`
    const key = entry.key ?? null
    const value = entry.value ?? null
    const keyGiven = key !== null || errors.has(`${at}.key`)
    const valueGiven = value !== null || errors.has(`${at}.value`)
    if (!keyGiven && !valueGiven) return
    if (!keyGiven) errors.add(`${at}.key`, `The ${at}.key field is required.`)
    if (!valueGiven) errors.add(`${at}.value`, `The ${at}.value field is required.`)
    if (key === null || value === null) return
    if (seen.has(key)) return errors.add(`${at}.key`, `The ${at}.key field has a duplicate value.`)
    seen.add(key)
    out.push({ key, value })
  })
  return out.length > 0 ? out : null
}

/** The rotation list: values only, empty entries dropped. */
export function rotationList(
  raw: ({ value?: string | null } | undefined)[],
): { value: string }[] | null {
  const out = raw.flatMap((entry) => (entry?.value ? [{ value: entry.value }] : []))
  return out.length > 0 ? out : null
}

/**
 * The expiry instant from a date and time given together in the account's time zone.
 * `undefined`: leave it as it is; `null`: clear it.
 */
export function expiryInstant(
  date: string | null | undefined,
  time: string | null | undefined,
  timeZone: string,
  errors: FieldErrors,
): number | null | undefined {
  if (date === undefined && time === undefined) return undefined
  if (errors.has('expiration_date') || errors.has('expiration_time')) return undefined
  const hasDate = date !== undefined && date !== null
  const hasTime = time !== undefined && time !== null
  if (!hasDate && !hasTime) return null
  if (!hasDate) {
    errors.add(
      'expiration_date',
      'The expiration date field is required when expiration time is present.',
    )
    return undefined
  }
  if (!hasTime) {
    errors.add(
      'expiration_time',
      'The expiration time field is required when expiration date is present.',
    )
    return undefined
  }
  return zonedToUtc(date, time, timeZone)
}

/** A new link, as far as its create does not say otherwise: no title, enabled, public, no clicks. */
export const NEW_LINK_DEFAULTS = {
  title: null,
  title_locked: 0,
  target_type: 0,
  disabled: 0,
  privacy: 0,
  clicks: 0,
} as const

/** Top-level paths the service itself answers; no alias may take them (compared case-insensitively). */
export const RESERVED_ALIASES = new Set([
  'api',
  'assets',
  'docs',
  'health',
  'healthz',
  'ready',
  'tls',
  'stats',
  'static',
  'admin',
  'login',
  'logout',
  'dashboard',
  'password',
  'robots',
  'favicon',
  'openapi',
])

export function isReservedAlias(alias: string): boolean {
  return RESERVED_ALIASES.has(alias.toLowerCase())
}

/** Letters and digits that cannot be mistaken for one another (no 0/O/o, 1/l/I). */
export const ALIAS_ALPHABET = '23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ'

/** A random alias for the n-th try (0 first): six characters, one more every third try. */
export function randomAlias(attempt: number): string {
  return randomString(6 + Math.floor(attempt / 3), ALIAS_ALPHABET)
}
