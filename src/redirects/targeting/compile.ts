/**
 * Compiles a link's stored targeting into rules (see `compiled-targeting.ts`): only the list the
 * target type selects, keys normalised (country upper case, language lower case, platform to its
 * canonical name), entries without a usable key or destination dropped (even a malformed stored
 * entry never throws). Pure; cache the result per link.
 */
import type { RotationEntry } from '../../db/types.js'
import type { TargetEntry } from '../../links/field-rules.js'
import { MAX_WEIGHT, PLATFORMS, TARGET_TYPES, type Platform } from '../../links/targeting-keys.js'
import { intentFallbackUrl, isIntentUrl } from '../../shared/destination-url.js'
import {
  ruleKey,
  type CompiledTargeting,
  type RuleKind,
  type TargetRule,
} from './compiled-targeting.js'
import type { TargetingSpec } from './spec.js'
import { weightedCycle } from './weighted-cycle.js'

const PLATFORM_BY_NAME = new Map<string, Platform>(PLATFORMS.map((p) => [p.toLowerCase(), p]))

function toRule(kind: RuleKind, entry: TargetEntry): TargetRule | null {
  const { key: rawKey, value: destination } = entry as Partial<TargetEntry>
  if (typeof rawKey !== 'string' || typeof destination !== 'string' || !destination) return null
  const key = rawKey.trim()
  switch (kind) {
    case 'country':
      return /^[a-z]{2}$/i.test(key) ? { kind, country: key.toUpperCase(), destination } : null
    case 'language':
      return /^[a-z]{2}$/i.test(key) ? { kind, language: key.toLowerCase(), destination } : null
    case 'platform': {
      const platform = PLATFORM_BY_NAME.get(key.toLowerCase())
      return platform ? { kind, platform, destination } : null
    }
  }
}

function keyed(
  kind: RuleKind,
  url: string,
  entries: readonly TargetEntry[] | null,
): CompiledTargeting {
  const rules: TargetRule[] = []
  const byKey = new Map<string, TargetRule>()
  for (const entry of entries ?? []) {
    const rule = toRule(kind, entry)
    if (!rule) continue
    const key = ruleKey(rule)
    if (byKey.has(key)) continue
    byKey.set(key, rule)
    rules.push(rule)
  }
  return rules.length > 0 ? { kind, url, rules, byKey } : { kind: 'none', url }
}

const isWeight = (weight: unknown): weight is number =>
  Number.isInteger(weight) && (weight as number) >= 1 && (weight as number) <= MAX_WEIGHT

/**
 * Round-robin over the main URL and the entries; weighted when every entry has a weight, the
 * main URL taking what is left of 100 (none when nothing is).
 */
function rotation(url: string, list: readonly RotationEntry[] | null): CompiledTargeting {
  const entries = (list ?? []).filter((e) => typeof e?.value === 'string' && e.value !== '')
  if (entries.length === 0) return { kind: 'none', url }
  if (!entries.every((e) => isWeight(e.weight))) {
    return { kind: 'rotation', url, cycle: [url, ...entries.map((e) => e.value)] }
  }
  const sum = entries.reduce((total, e) => total + e.weight!, 0)
  const cycle = weightedCycle([
    { item: url, weight: Math.max(0, MAX_WEIGHT - sum) },
    ...entries.map((e) => ({ item: e.value, weight: e.weight! })),
  ])
  return { kind: 'rotation', url, cycle }
}

function active(spec: TargetingSpec): CompiledTargeting {
  const { url } = spec
  switch (spec.targetType) {
    case TARGET_TYPES.country:
      return keyed('country', url, spec.country)
    case TARGET_TYPES.platform:
      return keyed('platform', url, spec.platform)
    case TARGET_TYPES.language:
      return keyed('language', url, spec.language)
    case TARGET_TYPES.rotation:
      return rotation(url, spec.rotation)
    default:
      return { kind: 'none', url }
  }
}

/** Every destination the compiled targeting can pick, the main URL first. */
function destinations(compiled: CompiledTargeting): readonly string[] {
  if (compiled.kind === 'none') return [compiled.url]
  if (compiled.kind === 'rotation') return [compiled.url, ...compiled.cycle]
  return [compiled.url, ...compiled.rules.map((rule) => rule.destination)]
}

/**
 * What a visitor not on Android gets in place of an intent: the main URL; when that is an
 * intent itself, its http(s) browser fallback (`S.browser_fallback_url`), else the intent as it is.
 */
export function offAndroidUrl(url: string): string {
  return isIntentUrl(url) ? (intentFallbackUrl(url) ?? url) : url
}

export function compileTargeting(spec: TargetingSpec): CompiledTargeting {
  const compiled = active(spec)
  return destinations(compiled).some(isIntentUrl)
    ? { ...compiled, offAndroid: offAndroidUrl(spec.url) }
    : compiled
}
