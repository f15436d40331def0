/**
 * A link's targeting as stored (contract §3): the main URL, the type that picks the active list,
 * and the four lists, each `null` or already validated. Lists other than the active one are kept
 * but ignored.
 */
import type { RotationEntry } from '../../db/types.js'
import type { TargetEntry } from '../../links/field-rules.js'
import type { TargetType } from '../../links/targeting-keys.js'

export interface TargetingSpec {
  url: string
  targetType: TargetType
  country: readonly TargetEntry[] | null
  platform: readonly TargetEntry[] | null
  language: readonly TargetEntry[] | null
  rotation: readonly RotationEntry[] | null
}
