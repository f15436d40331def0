/**
 * Targeting as data: a link's active list compiled into typed rules, each a condition on one
 * part of the visitor and a destination. Built once per link (`compileTargeting`) and cached
 * beside it; `decide` reads it for every click.
 */
import type { Platform } from '../../links/targeting-keys.js'

export type TargetRule =
  | { readonly kind: 'country'; readonly country: string; readonly destination: string }
  | { readonly kind: 'platform'; readonly platform: Platform; readonly destination: string }
  | { readonly kind: 'language'; readonly language: string; readonly destination: string }

export type RuleKind = TargetRule['kind']

/** The key a rule's condition compares with the visitor: a country, platform or language code. */
export function ruleKey(rule: TargetRule): string {
  switch (rule.kind) {
    case 'country':
      return rule.country
    case 'platform':
      return rule.platform
    case 'language':
      return rule.language
  }
}

/**
 * Set only when a destination of the link (its main URL included) is an Android intent
 * (`intent:`): what a visitor on any other platform gets instead of one.
 */
export interface OffAndroid {
  readonly offAndroid?: string
}

export type CompiledTargeting = OffAndroid &
  /** No targeting, or an active list with nothing in it: always the main URL. */
  (
    | { readonly kind: 'none'; readonly url: string }
    /**
     * Keyed rules in the link's order, and the same rules by key (keys are unique: a stored list
     * rejects duplicates, and compiling keeps the first of any that slip through).
     */
    | {
        readonly kind: RuleKind
        readonly url: string
        readonly rules: readonly TargetRule[]
        readonly byKey: ReadonlyMap<string, TargetRule>
      }
    /**
     * Round-robin over the main URL and the rotation entries, in that order; or, on a weighted
     * rotation, the 100 positions of its smooth weighted round-robin (`weighted-cycle.ts`).
     */
    | { readonly kind: 'rotation'; readonly url: string; readonly cycle: readonly string[] }
  )
