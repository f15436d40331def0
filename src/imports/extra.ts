/**
 * The rest of a phpShort link (targeting, privacy, expiry URL, pixels, passwords) checked with
 * the rules the API applies to the same fields: a targeting list or expiry URL the API would
 * refuse makes the row `invalid`; a pixel it would refuse is left out and said so, since the
 * link itself is worth more than one of its pixels.
 *
 * Secrets never travel: phpShort's API says only that a password is set. A link that had one
 * gets a random password nobody knows (it stays closed to visitors until its owner sets a new
 * one), and statistics behind a password become private (owner only) instead of public.
 */
import { keyedList, rotationList, type TargetEntry } from '../links/field-rules.js'
import {
  MAX_TARGET_ENTRIES,
  TARGET_KEYS,
  TARGET_LISTS,
  type TargetList,
} from '../links/targeting-keys.js'
import {
  canonicalPixelType,
  PIXEL_TYPE_INPUTS,
  pixelValueProblem,
  type PixelType,
  type PixelTypeInput,
} from '../pixels/types.js'
import { FieldErrors } from '../shared/errors.js'
import { FORMATS, isHttpUrl } from '../shared/formats.js'
import type { RowExtra, SourceTarget } from './row.js'

const MAX_URL = 2048
const MAX_PIXEL_NAME = 32
const MAX_PIXEL_VALUE = 255

export interface PixelDraft {
  name: string
  type: PixelType
  value: string
}

/** What a link row carries beyond the fields every source has. */
export interface ExtraDraft {
  targetType: number
  country: TargetEntry[] | null
  platform: TargetEntry[] | null
  language: TargetEntry[] | null
  rotation: { value: string }[] | null
  privacy: number
  /** A password was set in the source: the link gets one nobody knows. */
  lockedPassword: boolean
  expirationUrl: string | null
  pixels: PixelDraft[]
}

export interface CheckedExtra {
  draft: ExtraDraft
  /** Why the row cannot be imported (one sentence each): the row is `invalid`. */
  problems: string[]
  /** What the owner should know about a row that is imported anyway. */
  notes: string[]
}

export const NO_EXTRA: ExtraDraft = {
  targetType: 0,
  country: null,
  platform: null,
  language: null,
  rotation: null,
  privacy: 0,
  lockedPassword: false,
  expirationUrl: null,
  pixels: [],
}

const validUrl = (value: string) => value.length <= MAX_URL && isHttpUrl(value)

function keyed(list: Exclude<TargetList, 'rotation'>, raw: SourceTarget[], errors: FieldErrors) {
  raw.forEach((entry, i) => {
    if (entry.key !== null && !TARGET_KEYS[list].includes(entry.key))
      errors.add(`${list}.${i}.key`, `The selected ${list}.${i}.key is invalid.`)
    if (entry.value !== null && !validUrl(entry.value))
      errors.add(`${list}.${i}.value`, `The ${list}.${i}.value field must be a valid URL.`)
  })
  // Entries already refused are passed as holes, so they are not reported twice.
  const kept = raw.map((entry, i) =>
    errors.has(`${list}.${i}.key`) || errors.has(`${list}.${i}.value`) ? undefined : entry,
  )
  return keyedList(list, kept, errors)
}

export function checkExtra(extra: RowExtra | null): CheckedExtra {
  if (extra === null) return { draft: NO_EXTRA, problems: [], notes: [] }
  const errors = new FieldErrors()
  const notes: string[] = []
  for (const list of TARGET_LISTS) {
    if (extra[list].length > MAX_TARGET_ENTRIES)
      errors.add(list, `The ${list} field must not have more than ${MAX_TARGET_ENTRIES} items.`)
  }
  if (![0, 1, 2, 3, 4].includes(extra.targetType))
    errors.add('target_type', 'The selected target type is invalid.')
  if (![0, 1, 2].includes(extra.privacy)) errors.add('privacy', 'The selected privacy is invalid.')
  if (extra.expirationUrl !== null && !validUrl(extra.expirationUrl))
    errors.add('expiration_url', 'The expiration url field must be a valid URL.')
  const country = keyed('country', extra.country, errors)
  const platform = keyed('platform', extra.platform, errors)
  const language = keyed('language', extra.language, errors)
  extra.rotation.forEach((entry, i) => {
    if (entry.value !== null && !validUrl(entry.value))
      errors.add(`rotation.${i}.value`, `The rotation.${i}.value field must be a valid URL.`)
  })
  const rotation = rotationList(extra.rotation)

  const pixels: PixelDraft[] = []
  const seen = new Set<string>()
  for (const pixel of extra.pixels) {
    const problem = pixelProblem(pixel.type, pixel.value)
    if (problem !== null) {
      notes.push(`The pixel ${pixel.name ?? pixel.value ?? '(unnamed)'} was left out: ${problem}`)
      continue
    }
    const type = canonicalPixelType(pixel.type as PixelTypeInput)
    const value = pixel.value!
    if (seen.has(`${type}\n${value}`)) continue
    seen.add(`${type}\n${value}`)
    const name = [...(pixel.name ?? `${type} ${value}`)].slice(0, MAX_PIXEL_NAME).join('')
    pixels.push({ name, type, value })
  }
  let privacy = extra.privacy
  if (privacy === 2) {
    privacy = 1
    notes.push('Its statistics had a password, which the source does not give: they are private.')
  }
  if (extra.hadPassword)
    notes.push('It had a password, which the source does not give: set a new one to open it.')
  return {
    draft: {
      targetType: extra.targetType,
      country,
      platform,
      language,
      rotation,
      privacy,
      lockedPassword: extra.hadPassword,
      expirationUrl: extra.expirationUrl,
      pixels,
    },
    problems: Object.values(errors.messages).flat(),
    notes,
  }
}

function pixelProblem(type: string | null, value: string | null): string | null {
  if (type === null || !(PIXEL_TYPE_INPUTS as readonly string[]).includes(type))
    return 'The selected type is invalid.'
  if (value === null) return 'The value field is required.'
  if (value.length > MAX_PIXEL_VALUE || !FORMATS['alpha-dash'](value))
    return 'The value field must only contain letters, numbers, dashes, and underscores.'
  return pixelValueProblem(canonicalPixelType(type as PixelTypeInput), value)
}
