/**
 * What the closed sections of the link form say is set, from the form's values: "Password
 * set · Active", "Expires 3 Dec 2026, 18:00", "Countries: 2 rules".
 */
import type { LinkRecord } from '../links/schema.js'
import { tagNamesOfText, type LinkFormValues, type TargetRow } from './link-form.js'

export interface Summaries {
  access: string
  statistics: string
  expiry: string
  targeting: string
  organise: string
}

/** What the statistics section says for each choice of `privacy`. */
export const PRIVACY_STATES: Record<string, string> = {
  '0': 'Public',
  '1': 'Only me',
  '2': 'With a password',
}

/** What the targeting section says for a choice of `target_type` before its rows are counted. */
export const TARGET_STATES: Record<string, string> = {
  '0': 'Off: always the destination URL',
  '1': 'Countries',
  '2': 'Platforms',
  '3': 'Languages',
  '4': 'Rotation',
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** `2026-12-03` and `18:00` as "3 Dec 2026, 18:00" (the account's own clock, as typed). */
export function expiryWords(date: string, time: string): string | null {
  const found = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!found) return null
  const day = new Date(Date.UTC(Number(found[1]), Number(found[2]) - 1, Number(found[3])))
  if (Number.isNaN(day.getTime())) return null
  const words = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(day)
  return /^\d{2}:\d{2}$/.test(time) ? `${words}, ${time}` : words
}

const filled = (rows: TargetRow[]) => rows.filter((r) => r.key !== '' || r.value !== '').length

export function summaries(
  values: LinkFormValues,
  choices: { spaces: { id: number; name: string }[] },
  link?: LinkRecord,
): Summaries {
  const password = values.password !== '' || (Boolean(link?.password) && !values.clear_password)
  const access = [
    password ? 'Password set' : 'No password',
    values.disabled === '1' ? 'Disabled' : 'Active',
  ]

  const statistics = PRIVACY_STATES[values.privacy] ?? 'Public'

  const on = expiryWords(values.expiration_date, values.expiration_time)
  const clicks = Number(values.expiration_clicks)
  const afterClicks =
    Number.isSafeInteger(clicks) && clicks > 0 ? `after ${count(clicks, 'click', 'clicks')}` : null
  const expiry =
    on && afterClicks
      ? `Expires ${on} or ${afterClicks}`
      : on
        ? `Expires ${on}`
        : afterClicks
          ? `Expires ${afterClicks}`
          : 'Never expires'

  const lists: Record<string, string> = {
    '1': `Countries: ${count(filled(values.country), 'rule', 'rules')}`,
    '2': `Platforms: ${count(filled(values.platform), 'rule', 'rules')}`,
    '3': `Languages: ${count(filled(values.language), 'rule', 'rules')}`,
    '4': `Rotation: ${count(filled(values.rotation), 'destination', 'destinations')}`,
  }
  const targeting = lists[values.target_type] ?? TARGET_STATES['0']!

  const space = choices.spaces.find((s) => String(s.id) === values.space_id)
  const pixels = values.pixel_ids.length
  const tags = tagNamesOfText(values.tags).length
  const organise = [
    space ? `Space: ${space.name}` : 'No space',
    tags === 0 ? 'No tags' : count(tags, 'tag', 'tags'),
    pixels === 0 ? 'No pixels' : count(pixels, 'pixel', 'pixels'),
  ]
  return {
    access: access.join(' · '),
    statistics,
    expiry,
    targeting,
    organise: organise.join(' · '),
  }
}
