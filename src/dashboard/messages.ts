/**
 * The API's messages in people's words, for the dashboard's forms: each names the label the
 * user sees ("Destination URL") instead of the API field ("The url field"), and says what to
 * do. A message no rule knows keeps its text, with the API's field words replaced by the label.
 */
import type { FieldMessages } from '../shared/errors.js'

/** The words a message uses for its field: the label in quotes (`“Destination URL”`). */
export type Naming = (field: string) => string | undefined

type Rule = [RegExp, (name: string, found: RegExpExecArray) => string]

const RULES: Rule[] = [
  [
    / field is required when privacy is 2\.$/,
    (n) => `Fill in ${n}: only people who know it can see the statistics.`,
  ],
  [
    / field is required when expiration time is present\.$/,
    (n) => `Fill in ${n} as well, or empty the time.`,
  ],
  [
    / field is required when expiration date is present\.$/,
    (n) => `Fill in ${n} as well, or empty the date.`,
  ],
  [
    / field is required when any rotation entry has a weight\.$/,
    (n) => `Fill in ${n}: once one row has a weight, every row needs one.`,
  ],
  [
    /^The rotation weights must add up to at most 100; they add up to (\d+)\.$/,
    (n, m) => `The weights of ${n} add up to ${m[1]!}: at most 100 in all.`,
  ],
  [/ field is required\.$/, (n) => `Fill in ${n}.`],
  [
    / field must be a valid (?:http or https )?URL\.$/,
    (n) => `${n} must be a web address, such as https://example.org/page.`,
  ],
  [
    / field must only contain letters, numbers, dashes, and underscores\.$/,
    (n) => `${n} may only contain letters, digits, - and _.`,
  ],
  [/ field must match the format H:i\.$/, (n) => `${n} must be a time, such as 18:00.`],
  [/ field must match the format Y-m-d\.$/, (n) => `${n} must be a date, such as 2026-12-03.`],
  [
    / field must be a valid domain name\.$/,
    (n) => `${n} must be a domain name, such as go.example.com.`,
  ],
  [
    / field must be a valid email address\.$/,
    (n) => `${n} must be an email address, such as ada@example.org.`,
  ],
  [/ field must be a valid timezone\.$/, (n) => `Choose ${n} from the list.`],
  [
    / field must not be greater than (\d+) characters\.$/,
    (n, m) => `${n} is too long: at most ${m[1]!} characters.`,
  ],
  [/ field must be at least 1 characters\.$/, (n) => `Fill in ${n}.`],
  [
    / field must be at least (\d+) characters\.$/,
    (n, m) => `${n} is too short: at least ${m[1]!} characters.`,
  ],
  [/ field must not be greater than (\d+)\.$/, (n, m) => `${n} may be at most ${m[1]!}.`],
  [/ field must be at least (\d+)\.$/, (n, m) => `${n} must be ${m[1]!} or more.`],
  [/ field must be an integer\.$/, (n) => `${n} must be a whole number, such as 100.`],
  [/ field must not have more than (\d+) items\.$/, (n, m) => `${n} takes at most ${m[1]!} rows.`],
  [/ field has a duplicate value\.$/, (n) => `${n} is chosen twice: each may appear once.`],
  [
    / field must have the format ADVID-PIXID for an adroll pixel\.$/,
    (n) => `${n} of an AdRoll pixel looks like ADVID-PIXID (two parts joined by a dash).`,
  ],
  [/ has already been taken\.$/, (n) => `${n} is already taken: choose another.`],
  [/^The alias is reserved\.$/, (n) => `${n} is kept for slink’s own pages: choose another.`],
  [/^The selected .+ is invalid\.$/, (n) => `Choose ${n} from the list.`],
]

/** One message in people's words, naming the field as `name` says. */
export function peoplesWords(message: string, name: string): string {
  const rule = RULES.find(([pattern]) => pattern.test(message))
  const found = rule?.[0].exec(message)
  const said =
    rule && found
      ? rule[1](name, found)
      : message.replace(/^The (?:selected )?[\w .]+? field\b/, name)
  return said.charAt(0).toUpperCase() + said.slice(1)
}

/** Every message of a form in people's words; a field `naming` does not know keeps its own. */
export function inPeoplesWords(messages: FieldMessages, naming: Naming): FieldMessages {
  const out: FieldMessages = {}
  for (const [field, list] of Object.entries(messages)) {
    const name = naming(field)
    out[field] = name === undefined ? list : list.map((m) => peoplesWords(m, name))
  }
  return out
}

/** A naming from a table of labels: `{ url: 'Destination URL' }` names `url` “Destination URL”. */
export function labelled(labels: Record<string, string>): Naming {
  return (field) => (Object.hasOwn(labels, field) ? `“${labels[field]!}”` : undefined)
}

const LINK_LABELS: Record<string, string> = {
  url: 'Destination URL',
  rules: 'Rules',
  domain_id: 'Domain',
  alias: 'Alias',
  title: 'Title',
  password: 'Password for visitors',
  space_id: 'Space',
  pixel_ids: 'Pixels',
  disabled: 'Status',
  privacy: 'Who can see the statistics page',
  privacy_password: 'Statistics password',
  expiration_date: 'Expires on',
  expiration_time: 'At',
  expiration_clicks: 'Expires after this many clicks',
  expiration_url: 'Once expired, send visitors to',
  target_type: 'Send visitors by',
  country: 'Countries',
  platform: 'Platforms',
  language: 'Languages',
  rotation: 'Rotation',
  og_title: 'Preview title',
  og_description: 'Preview description',
  og_image: 'Preview image URL',
}

const ROW_NAMES: Record<string, string> = {
  country: 'Country',
  platform: 'Platform',
  language: 'Language',
}

/** The link form's naming, its targeting rows included (`country.1.value`: row 2's destination). */
export const linkNaming: Naming = (field) => {
  const plain = labelled(LINK_LABELS)(field)
  if (plain !== undefined) return plain
  if (/^pixel_ids\.\d+$/.test(field)) return '“Pixels”'
  const rule = /^rules\.(\d+)\.(url|conditions)(?:\.(\d+)\.(type|key))?$/.exec(field)
  if (rule) {
    const n = Number(rule[1]) + 1
    if (rule[2] === 'url') return `“Then send to” of rule ${n}`
    if (rule[3] === undefined) return `the conditions of rule ${n}`
    const part = rule[4] === 'type' ? 'the type' : 'the parameter'
    return `${part} of condition ${Number(rule[3]) + 1} of rule ${n}`
  }
  const row = /^(country|platform|language|rotation)\.(\d+)\.(key|value|weight)$/.exec(field)
  if (!row) return undefined
  const n = Number(row[2]) + 1
  if (row[3] === 'weight') return `“Weight ${n}” of the rotation`
  if (row[1] === 'rotation') return `“Destination ${n}” of the rotation`
  const key = ROW_NAMES[row[1]!]!
  return row[3] === 'key' ? `“${key} ${n}”` : `the “Destination” of ${key.toLowerCase()} ${n}`
}
