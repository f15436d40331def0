/**
 * The redirect decision (contract §5 step 7): the destination a visitor gets from a link's
 * compiled targeting. The visitor offers keys in its own order of preference and the first key
 * that has a rule wins; when none has, the main URL stays.
 * - country: the country of the client IP;
 * - platform: the exact platform, then Linux for Ubuntu (so an Ubuntu rule beats a Linux rule,
 *   and a Linux rule catches Ubuntu when there is no Ubuntu rule);
 * - language: the visitor's languages by preference, so the visitor's order beats the link's;
 * - rotation: the cycle position of a counter the caller advances.
 * Only the part of the visitor the link's rules need is read.
 */
import type { Platform } from '../../links/targeting-keys.js'
import { isIntentUrl } from '../../shared/destination-url.js'
import { rotationDestination } from './rotation.js'
import type { CompiledTargeting, RuleKind, TargetRule } from './compiled-targeting.js'

/** What targeting reads of the visitor (a `VisitorContext` is one). */
export interface TargetingVisitor {
  readonly country: string | null
  readonly platform: Platform | null
  readonly languages: readonly string[]
}

const UBUNTU_KEYS: readonly string[] = ['Ubuntu', 'Linux']

/** The keys a visitor offers to rules of one kind, most preferred first. */
export function visitorKeys(kind: RuleKind, visitor: TargetingVisitor): readonly string[] {
  switch (kind) {
    case 'country':
      return visitor.country === null ? [] : [visitor.country]
    case 'platform':
      if (visitor.platform === null) return []
      return visitor.platform === 'Ubuntu' ? UBUNTU_KEYS : [visitor.platform]
    case 'language':
      return visitor.languages
  }
}

/** The rule that picks the visitor's destination, or `null` (main URL, or rotation). */
export function matchingRule(
  compiled: CompiledTargeting,
  visitor: TargetingVisitor,
): TargetRule | null {
  if (compiled.kind === 'none' || compiled.kind === 'rotation') return null
  for (const key of visitorKeys(compiled.kind, visitor)) {
    const rule = compiled.byKey.get(key)
    if (rule) return rule
  }
  return null
}

function targeted(
  compiled: CompiledTargeting,
  visitor: TargetingVisitor,
  rotationCounter: number | bigint,
): string {
  if (compiled.kind === 'none') return compiled.url
  if (compiled.kind === 'rotation') return rotationDestination(compiled.cycle, rotationCounter)
  return matchingRule(compiled, visitor)?.destination ?? compiled.url
}

/**
 * The destination URL. `rotationCounter` is read only by rotation links (`kind: 'rotation'`):
 * the caller advances it atomically for those and may pass 0 for the others. An Android intent
 * goes to Android visitors only; the others get `offAndroid` (the main URL) instead.
 */
export function decide(
  compiled: CompiledTargeting,
  visitor: TargetingVisitor,
  rotationCounter: number | bigint,
): string {
  const destination = targeted(compiled, visitor, rotationCounter)
  const { offAndroid } = compiled
  if (offAndroid === undefined || visitor.platform === 'Android') return destination
  return isIntentUrl(destination) ? offAndroid : destination
}
