/**
 * Compiles a link's stored targeting into rules (see `compiled-targeting.ts`): only the list the
 * target type selects, keys normalised (country upper case, language lower case, platform to its
 * canonical name), entries without a usable key or destination dropped (even a malformed stored
 * entry never throws). Pure; cache the result per link.
 */
import type { TargetEntry } from '../../links/field-rules.js'
import { PLATFORMS, TARGET_TYPES, type Platform } from '../../links/targeting-keys.js'
import {
  ruleKey,
  type CompiledTargeting,
  type RuleKind,
  type TargetRule,
} from './compiled-targeting.js'
import type { TargetingSpec } from './spec.js'

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

export function compileTargeting(spec: TargetingSpec): CompiledTargeting {
  const { url } = spec
  switch (spec.targetType) {
    case TARGET_TYPES.country:
      return keyed('country', url, spec.country)
    case TARGET_TYPES.platform:
      return keyed('platform', url, spec.platform)
    case TARGET_TYPES.language:
      return keyed('language', url, spec.language)
    case TARGET_TYPES.rotation: {
      const entries = (spec.rotation ?? []).flatMap((entry) => (entry.value ? [entry.value] : []))
      return entries.length > 0
        ? { kind: 'rotation', url, cycle: [url, ...entries] }
        : { kind: 'none', url }
    }
    default:
      return { kind: 'none', url }
  }
}
