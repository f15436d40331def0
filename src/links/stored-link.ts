/**
 * A link's targeting lists and redirect rules are stored as JSON text. The stores parse them on every read and
 * write them back as JSON on every write, here: the services, the records and the redirect see
 * typed lists, parsed once.
 */
import type { Insertable, Updateable } from 'kysely'
import type {
  LinkRow,
  LinkRowUpdate,
  LinksTable,
  LinkTargetLists,
  NewLinkRow,
  StoredLinkRow,
  TargetColumn,
} from '../db/types.js'

const TARGET_COLUMNS = [
  'country_target',
  'platform_target',
  'language_target',
  'rotation_target',
  'rules',
] as const satisfies readonly TargetColumn[]

function parsed<T>(json: string | null): T[] | null {
  return json === null ? null : (JSON.parse(json) as T[])
}

/** A link as read from its stored row. */
export function linkFromStored(row: StoredLinkRow): LinkRow {
  return {
    ...row,
    country_target: parsed(row.country_target),
    platform_target: parsed(row.platform_target),
    language_target: parsed(row.language_target),
    rotation_target: parsed(row.rotation_target),
    rules: parsed(row.rules),
  }
}

/** The given lists as JSON text (`null` stays `null`); lists not given are left out. */
function storedLists(lists: Partial<LinkTargetLists>): { [C in TargetColumn]?: string | null } {
  const out: { [C in TargetColumn]?: string | null } = {}
  for (const column of TARGET_COLUMNS) {
    const list = lists[column]
    if (list !== undefined) out[column] = list === null ? null : JSON.stringify(list)
  }
  return out
}

/** A new link's row as stored. */
export function newLinkToStored(row: NewLinkRow): Insertable<LinksTable> {
  const { country_target, platform_target, language_target, rotation_target, rules, ...rest } = row
  return {
    ...rest,
    ...storedLists({ country_target, platform_target, language_target, rotation_target, rules }),
  }
}

/** A change of a link's columns as stored. */
export function changesToStored(changes: LinkRowUpdate): Updateable<LinksTable> {
  const { country_target, platform_target, language_target, rotation_target, rules, ...rest } =
    changes
  return {
    ...rest,
    ...storedLists({ country_target, platform_target, language_target, rotation_target, rules }),
  }
}
