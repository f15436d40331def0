/** The keys each targeting list accepts, and what each `target_type` value selects. */
import { COUNTRY_CODES, LANGUAGE_CODES } from '../shared/iso-codes.js'

export const PLATFORMS = [
  'iOS',
  'Android',
  'Windows',
  'OS X',
  'Linux',
  'Ubuntu',
  'Chrome OS',
] as const
export type Platform = (typeof PLATFORMS)[number]

export const TARGET_TYPES = { none: 0, country: 1, platform: 2, language: 3, rotation: 4 } as const
export type TargetType = (typeof TARGET_TYPES)[keyof typeof TARGET_TYPES]

export const TARGET_LISTS = ['country', 'platform', 'language', 'rotation'] as const
export type TargetList = (typeof TARGET_LISTS)[number]

export const TARGET_KEYS: Record<Exclude<TargetList, 'rotation'>, readonly string[]> = {
  country: COUNTRY_CODES,
  platform: PLATFORMS,
  language: LANGUAGE_CODES,
}

export const MAX_TARGET_ENTRIES = 100

/** Rotation weights are visits in every 100: each 1 to 100, their sum at most 100. */
export const MAX_WEIGHT = 100
