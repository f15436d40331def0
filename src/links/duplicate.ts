/**
 * What a duplicate of a link takes from it. Every stored column of a link is listed here, as
 * copied or started afresh, and the list is checked against the table's type: a column added to
 * links does not compile until it says which it is. Relations copied with the row: its pixels and tags.
 */
import type { LinkRow, LinksTable, NewLinkRow } from '../db/types.js'

type Kind = 'copy' | 'fresh'

export const DUPLICATED_COLUMNS = {
  // A new row, a new short link: its own id, alias, clicks, rotation turn and times.
  id: 'fresh',
  alias: 'fresh',
  clicks: 'fresh',
  last_rotation: 'fresh',
  created_at: 'fresh',
  updated_at: 'fresh',
  title_fetch_at: 'fresh',
  // Every setting.
  user_id: 'copy',
  domain_id: 'copy',
  space_id: 'copy',
  url: 'copy',
  title: 'copy',
  title_locked: 'copy',
  target_type: 'copy',
  country_target: 'copy',
  platform_target: 'copy',
  language_target: 'copy',
  rotation_target: 'copy',
  disabled: 'copy',
  privacy: 'copy',
  privacy_password: 'copy',
  password: 'copy',
  expiration_url: 'copy',
  expiration_clicks: 'copy',
  ends_at: 'copy',
  rules: 'copy',
  og_title: 'copy',
  og_description: 'copy',
  og_image: 'copy',
} as const satisfies Record<keyof LinksTable, Kind>

type Copied = {
  [C in keyof typeof DUPLICATED_COLUMNS]: (typeof DUPLICATED_COLUMNS)[C] extends 'copy' ? C : never
}[keyof typeof DUPLICATED_COLUMNS]

const COPIED = (Object.keys(DUPLICATED_COLUMNS) as (keyof typeof DUPLICATED_COLUMNS)[]).filter(
  (c): c is Copied => DUPLICATED_COLUMNS[c] === 'copy',
)

/** The new row of a duplicate: the copied columns of `link`, with the alias and time given. */
export function duplicateRow(link: LinkRow, alias: string, now: number): NewLinkRow {
  const copied = Object.fromEntries(COPIED.map((c) => [c, link[c]])) as Pick<LinkRow, Copied>
  return { ...copied, alias, clicks: 0, created_at: now, updated_at: now }
}
