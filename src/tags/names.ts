/** The rules of tag names: trimmed, 1–50 characters, no comma, unique per user ignoring case. */
import type { FieldErrors } from '../shared/errors.js'

export const MAX_TAG_NAME = 50
export const MAX_TAGS_PER_LINK = 25

/** What makes two names the same tag. */
export function tagKey(name: string): string {
  return name.toLowerCase()
}

/** Names in the order records list them: ignoring case, then by their exact text. */
export function compareTagNames(a: string, b: string): number {
  const ka = tagKey(a)
  const kb = tagKey(b)
  if (ka !== kb) return ka < kb ? -1 : 1
  return a < b ? -1 : a > b ? 1 : 0
}

/** What is wrong with a trimmed name, or null. */
export function tagNameProblem(field: string, name: string): string | null {
  if (name.length === 0) return `The ${field} field must be at least 1 characters.`
  if ([...name].length > MAX_TAG_NAME) {
    return `The ${field} field must not be greater than ${MAX_TAG_NAME} characters.`
  }
  if (name.includes(',')) return `The ${field} field must not contain a comma.`
  return null
}

/**
 * A link's tag names as given (`field.N` for each bad one): trimmed, the first spelling of each
 * name kept, at most MAX_TAGS_PER_LINK different names. Holes are items that failed validation.
 */
export function tagNameList(
  field: string,
  given: readonly (string | null | undefined)[],
  errors: FieldErrors,
): string[] {
  const names = new Map<string, string>()
  given.forEach((raw, i) => {
    if (typeof raw !== 'string') return
    const name = raw.trim()
    const problem = tagNameProblem(`${field}.${i}`, name)
    if (problem !== null) errors.add(`${field}.${i}`, problem)
    else if (!names.has(tagKey(name))) names.set(tagKey(name), name)
  })
  if (names.size > MAX_TAGS_PER_LINK) {
    errors.add(field, `The ${field} field must not have more than ${MAX_TAGS_PER_LINK} items.`)
  }
  return [...names.values()]
}

/** One tag added to links, or taken off them (the dashboard's bulk actions). */
export type TagChange = { add: string } | { remove: string }

/** The name a change is about, as given. */
export function changedTagName(change: TagChange): string {
  return 'add' in change ? change.add : change.remove
}

/**
 * A link's tag names after a change, or null when it changes nothing (the link has that tag
 * already, or has not got it). An added name keeps the spelling given; `tagged` keeps a stored
 * tag's own. The result may be longer than MAX_TAGS_PER_LINK: the caller refuses that.
 */
export function retagged(names: readonly string[], change: TagChange): string[] | null {
  const key = tagKey(changedTagName(change).trim())
  const has = names.some((name) => tagKey(name) === key)
  if ('add' in change) return has ? null : [...names, change.add.trim()]
  return has ? names.filter((name) => tagKey(name) !== key) : null
}
