/**
 * A link's redirect rules compiled once per cached link: each rule a URL (in `href` form) and
 * its conditions as tests on the visit, cheapest first (the visit time and the query before the
 * User-Agent, the GeoIP lookups, and the browser name, which costs a full User-Agent parse).
 * A stored rule with a condition this code cannot read is left out rather than thrown on.
 */
import type { StoredCondition, StoredRule } from '../../links/redirect-rules.js'
import { PLATFORMS, type Platform } from '../../links/targeting-keys.js'
import type { DeviceType } from '../../visitors/user-agent.js'
import type { TargetingVisitor } from './decide.js'

/** What rules read of the visitor (a `VisitorContext` is one). */
export interface RuleVisitor extends TargetingVisitor {
  /** When the visit came, epoch milliseconds. */
  readonly time: number
  /** The region's name as the GeoIP data gives it (`California`); null when unknown. */
  readonly region: string | null
  /** The region as ISO 3166-2 (`US-CA`) when the data gives its code; null otherwise. */
  readonly regionCode: string | null
  readonly device: DeviceType
  readonly browser: string | null
}

/** The short URL's query parameters, parsed on first use. */
export type QueryParams = () => URLSearchParams

export type RuleTest = (visitor: RuleVisitor, query: QueryParams) => boolean

export interface CompiledRule {
  readonly url: string
  readonly tests: readonly RuleTest[]
}

export type CompiledRules = readonly CompiledRule[]

export const NO_RULES: CompiledRules = []

const PLATFORM_NAMES = new Set<string>(PLATFORMS)

/** An ISO 3166-2 code as a region condition stores it (`US-CA`); any other value is a name. */
const REGION_CODE = /^[A-Z]{2}-[A-Z0-9]{1,3}$/

/** Whether the visitor is in the region: by code when the condition gives one, else by name. */
function inRegion(visitor: RuleVisitor, value: string): boolean {
  if (REGION_CODE.test(value)) return visitor.regionCode === value
  return visitor.region !== null && visitor.region.toLowerCase() === value.toLowerCase()
}

/** A condition's test and its cost rank (lower runs first), or null when it cannot be read. */
function test(condition: StoredCondition): [RuleTest, number] | null {
  const { type, key, value } = condition
  if (type === 'query') {
    if (typeof key !== 'string') return null
    if (value === undefined) return [(_, query) => query().has(key), 1]
    return [(_, query) => query().getAll(key).includes(value), 1]
  }
  if (typeof value !== 'string') return null
  switch (type) {
    case 'before': {
      const at = Date.parse(value)
      return Number.isFinite(at) ? [(v) => v.time < at, 0] : null
    }
    case 'after': {
      const at = Date.parse(value)
      return Number.isFinite(at) ? [(v) => v.time >= at, 0] : null
    }
    case 'platform': {
      if (!PLATFORM_NAMES.has(value)) return null
      const platform = value as Platform
      // Ubuntu is a Linux: a Linux condition holds for it too.
      if (platform === 'Linux') return [(v) => v.platform === 'Linux' || v.platform === 'Ubuntu', 2]
      return [(v) => v.platform === platform, 2]
    }
    case 'device':
      return [(v) => v.device === value, 2]
    case 'language':
      return [(v) => v.languages.includes(value), 2]
    case 'country':
      return [(v) => v.country === value, 3]
    case 'region':
      return [(v) => inRegion(v, value), 4]
    case 'browser': {
      const name = value.toLowerCase()
      return [(v) => v.browser?.toLowerCase() === name, 5]
    }
    default:
      return null
  }
}

/** The rules of a link; `href` puts each URL in the form a Location header takes. */
export function compileRules(
  rules: readonly StoredRule[] | null,
  href: (url: string) => string,
): CompiledRules {
  if (rules === null || rules.length === 0) return NO_RULES
  const out: CompiledRule[] = []
  for (const rule of rules) {
    if (!Array.isArray(rule?.conditions) || typeof rule.url !== 'string') continue
    const tests = rule.conditions.map(test)
    if (tests.length === 0 || tests.some((t) => t === null)) continue
    const ordered = (tests as [RuleTest, number][]).sort((a, b) => a[1] - b[1])
    out.push({ url: href(rule.url), tests: ordered.map(([t]) => t) })
  }
  return out.length > 0 ? out : NO_RULES
}

/**
 * The URL of the first rule whose conditions all hold for this visit, or null (then the
 * targeting list decides). Pure: the same link, visitor and query give the same answer.
 */
export function firstRuleUrl(
  rules: CompiledRules,
  visitor: RuleVisitor,
  query: string,
): string | null {
  let parsed: URLSearchParams | undefined
  const params: QueryParams = () => (parsed ??= new URLSearchParams(query))
  for (const rule of rules) {
    if (rule.tests.every((t) => t(visitor, params))) return rule.url
  }
  return null
}
