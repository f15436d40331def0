/**
 * The field rules of a link's redirect rules (`rules`): an ordered list of `{conditions, url}`,
 * each condition a `{type, value}` (or `{type: "query", key, value?}`). Values are checked and
 * stored in one spelling (country and region upper case, platform by its canonical name, device
 * and language lower case, instants in UTC with microseconds), so the redirect compares them
 * as they are. Entirely empty rules and conditions are dropped (a form's blank row); a rule
 * needs a URL and at least one condition. Every failure is named by its path
 * (`rules.0.conditions.1.value`).
 */
import type { StoredCondition, StoredRule } from '../db/types.js'
import type { FieldErrors } from '../shared/errors.js'
import { FORMATS } from '../shared/formats.js'
import { COUNTRY_CODES, LANGUAGE_CODES } from '../shared/iso-codes.js'
import { isoMicro } from '../shared/time.js'
import { PLATFORMS } from './targeting-keys.js'

export type { StoredCondition, StoredRule } from '../db/types.js'

export const RULE_CONDITION_TYPES = [
  'country',
  'region',
  'platform',
  'device',
  'browser',
  'language',
  'before',
  'after',
  'query',
] as const
export type RuleConditionType = (typeof RULE_CONDITION_TYPES)[number]

export const DEVICE_TYPES = ['mobile', 'tablet', 'desktop'] as const

export const MAX_RULES = 50
export const MAX_RULE_CONDITIONS = 10
/** The longest `key` or `value` of a condition. */
export const MAX_CONDITION_TEXT = 255

type RawCondition = { type?: string | null; key?: string | null; value?: string | null }
type RawRule = { conditions?: (RawCondition | undefined)[] | null; url?: string | null }

const COUNTRIES = new Set(COUNTRY_CODES)
const LANGUAGES = new Set(LANGUAGE_CODES)
const PLATFORM_BY_NAME = new Map<string, string>(PLATFORMS.map((p) => [p.toLowerCase(), p]))
const DEVICES = new Set<string>(DEVICE_TYPES)
const REGION = /^([A-Z]{2})-[A-Z0-9]{1,3}$/
const INSTANT =
  /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/i

/** An ISO-8601 instant (a date, a time and `Z` or an offset) in epoch milliseconds, or null. */
export function parseInstant(value: string): number | null {
  const found = INSTANT.exec(value)
  if (!found || !FORMATS['date-ymd'](found[1]!)) return null
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : null
}

/** A condition's value as stored, or null when its type does not accept it. */
function storedValue(type: Exclude<RuleConditionType, 'query'>, raw: string): string | null {
  const value = raw.trim()
  switch (type) {
    case 'country':
      return COUNTRIES.has(value.toUpperCase()) ? value.toUpperCase() : null
    case 'region': {
      const upper = value.toUpperCase()
      const found = REGION.exec(upper)
      if (found) return COUNTRIES.has(found[1]!) ? upper : null
      // A region's name, as the GeoIP data gives it (DB-IP's city data has names only).
      const controls = [...value].some((c) => c.charCodeAt(0) < 0x20)
      return [...value].length < 3 || controls ? null : value
    }
    case 'platform':
      return PLATFORM_BY_NAME.get(value.toLowerCase()) ?? null
    case 'device':
      return DEVICES.has(value.toLowerCase()) ? value.toLowerCase() : null
    case 'browser':
      return value === '' ? null : value
    case 'language':
      return LANGUAGES.has(value.toLowerCase()) ? value.toLowerCase() : null
    case 'before':
    case 'after': {
      const ms = parseInstant(value)
      return ms === null ? null : isoMicro(ms)
    }
  }
}

function invalidValue(type: RuleConditionType, at: string): string {
  return type === 'before' || type === 'after'
    ? `The ${at} field must be an ISO 8601 instant, such as 2026-05-01T10:00:00Z.`
    : `The selected ${at} is invalid.`
}

function condition(raw: RawCondition, at: string, errors: FieldErrors): StoredCondition | null {
  const given = (part: keyof RawCondition) =>
    (raw[part] !== undefined && raw[part] !== null) || errors.has(`${at}.${part}`)
  if (!given('type')) {
    errors.add(`${at}.type`, `The ${at}.type field is required.`)
    return null
  }
  const { type, key, value } = raw
  if (type === undefined || type === null) return null
  if (type === 'query') {
    if (!given('key')) errors.add(`${at}.key`, `The ${at}.key field is required.`)
    if (key === undefined || key === null) return null
    return value === undefined || value === null ? { type, key } : { type, key, value }
  }
  const keyGiven = given('key')
  if (keyGiven) errors.add(`${at}.key`, `The ${at}.key field is only taken by query conditions.`)
  if (!given('value')) errors.add(`${at}.value`, `The ${at}.value field is required.`)
  if (value === undefined || value === null) return null
  const stored = storedValue(type as Exclude<RuleConditionType, 'query'>, value)
  if (stored === null) {
    errors.add(`${at}.value`, invalidValue(type as RuleConditionType, `${at}.value`))
  }
  return stored === null || keyGiven ? null : { type, value: stored }
}

function isBlank(raw: RawCondition | undefined): boolean {
  return raw !== undefined && !raw.type && !raw.key && !raw.value
}

/**
 * The rules as stored, `null` when none is left (which clears them). An entry or part that
 * already failed schema validation arrives removed (a hole, or a missing part) and counts as
 * given, so it is not reported twice.
 */
export function ruleList(
  raw: (RawRule | undefined)[],
  errors: FieldErrors,
  field = 'rules',
): StoredRule[] | null {
  const out: StoredRule[] = []
  raw.forEach((rule, i) => {
    if (rule === undefined) return
    const at = `${field}.${i}`
    const entries = (rule.conditions ?? []).map((c, j) => [c, j] as const)
    const kept = entries.filter(([c, j]) => !isBlank(c) || errors.has(`${at}.conditions.${j}`))
    const urlGiven = (rule.url !== undefined && rule.url !== null) || errors.has(`${at}.url`)
    if (!urlGiven && kept.length === 0 && !errors.has(at)) return
    if (!urlGiven) errors.add(`${at}.url`, `The ${at}.url field is required.`)
    if (kept.length === 0 && !errors.has(`${at}.conditions`)) {
      errors.add(`${at}.conditions`, `The ${at}.conditions field must have at least 1 items.`)
    }
    const conditions = kept.flatMap(([c, j]) =>
      c === undefined ? [] : (condition(c, `${at}.conditions.${j}`, errors) ?? []),
    )
    if (rule.url && conditions.length === kept.length && kept.length > 0) {
      out.push({ conditions, url: rule.url })
    }
  })
  return out.length > 0 ? out : null
}
