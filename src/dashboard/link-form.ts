/**
 * The link form as the dashboard reads and shows it: what was typed (kept as text, so a refused
 * form comes back exactly as it was sent), the API input it stands for, and the in-place row
 * buttons of the targeting lists (`_action=add_country`, `_action=remove_country_2`), which
 * re-render the form instead of saving it.
 */
import type { LinkRecord } from '../links/schema.js'
import { TARGET_LISTS, type TargetList } from '../links/targeting-keys.js'
import { utcToZoned } from '../shared/time.js'
import { recordRuleRows, ruleRows, rulesInput, type RuleRow } from './link-rules-form.js'

export interface TargetRow {
  key: string
  value: string
  /** Rotation rows only: the weight as typed (empty: none). */
  weight?: string
}

export interface LinkFormValues {
  url: string
  domain_id: string
  alias: string
  title: string
  password: string
  space_id: string
  pixel_ids: string[]
  /** Tag names separated by commas. */
  tags: string
  disabled: string
  privacy: string
  privacy_password: string
  expiration_url: string
  expiration_date: string
  expiration_time: string
  expiration_clicks: string
  target_type: string
  country: TargetRow[]
  platform: TargetRow[]
  language: TargetRow[]
  rotation: TargetRow[]
  og_title: string
  og_description: string
  og_image: string
  rules: RuleRow[]
  /** Edit form only: remove the stored password / statistics password. */
  clear_password: boolean
  clear_privacy_password: boolean
  /** The fields the form sent; one it did not send is left as it is, as in the API. */
  sent: ReadonlySet<string>
}

export type RowAction = { add: TargetList } | { remove: TargetList; index: number }

type Raw = Record<string, unknown>

function text(raw: Raw, name: string): string {
  const value = raw[name]
  return typeof value === 'string' ? value : ''
}

/** The items of a bracket list as sent: qs gives an array, or an object past its limits. */
export function items(value: unknown): unknown[] {
  if (Array.isArray(value)) return value
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value)
    .filter(([index]) => /^\d{1,6}$/.test(index))
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, item]) => item)
}

function rows(value: unknown): TargetRow[] {
  return items(value).map((item) => {
    const entry = typeof item === 'object' && item !== null ? (item as Raw) : {}
    return { key: text(entry, 'key'), value: text(entry, 'value') }
  })
}

function rotationRows(value: unknown): TargetRow[] {
  return items(value).map((item) => {
    const entry = typeof item === 'object' && item !== null ? (item as Raw) : {}
    return { key: '', value: text(entry, 'value'), weight: text(entry, 'weight') }
  })
}

/** The form's values as sent (a parsed `application/x-www-form-urlencoded` body). */
export function formValues(raw: Raw): LinkFormValues {
  return {
    url: text(raw, 'url'),
    domain_id: text(raw, 'domain_id'),
    alias: text(raw, 'alias'),
    title: text(raw, 'title'),
    password: text(raw, 'password'),
    space_id: text(raw, 'space_id'),
    pixel_ids: items(raw.pixel_ids).filter((v): v is string => typeof v === 'string' && v !== ''),
    tags: text(raw, 'tags'),
    disabled: text(raw, 'disabled'),
    privacy: text(raw, 'privacy'),
    privacy_password: text(raw, 'privacy_password'),
    expiration_url: text(raw, 'expiration_url'),
    expiration_date: text(raw, 'expiration_date'),
    expiration_time: text(raw, 'expiration_time'),
    expiration_clicks: text(raw, 'expiration_clicks'),
    target_type: text(raw, 'target_type'),
    country: rows(raw.country),
    platform: rows(raw.platform),
    language: rows(raw.language),
    rotation: rotationRows(raw.rotation),
    og_title: text(raw, 'og_title'),
    og_description: text(raw, 'og_description'),
    og_image: text(raw, 'og_image'),
    rules: ruleRows(raw.rules),
    clear_password: text(raw, '_clear_password') === '1',
    clear_privacy_password: text(raw, '_clear_privacy_password') === '1',
    sent: new Set(Object.keys(raw)),
  }
}

/** An empty create form, on the given domain. */
export function newLinkValues(domainId: number | null): LinkFormValues {
  return {
    ...formValues({}),
    domain_id: domainId === null ? '' : String(domainId),
    disabled: '0',
    privacy: '0',
    target_type: '0',
  }
}

/** The edit form of a stored link; its expiry shown on the account's clock. */
export function recordValues(link: LinkRecord, timeZone: string): LinkFormValues {
  const expiry = link.ends_at === null ? null : utcToZoned(Date.parse(link.ends_at), timeZone)
  const keyed = (list: { key: string; value: string }[] | null) =>
    (list ?? []).map((e) => ({ key: e.key, value: e.value }))
  return {
    url: link.url,
    domain_id: String(link.domain.id),
    alias: link.alias,
    title: link.title ?? '',
    password: '',
    space_id: link.space === null ? '' : String(link.space.id),
    pixel_ids: link.pixels.map((p) => String(p.id)),
    tags: link.tags.join(', '),
    disabled: String(link.disabled),
    privacy: String(link.privacy),
    privacy_password: '',
    expiration_url: link.expiration_url ?? '',
    expiration_date: expiry?.date ?? '',
    expiration_time: expiry?.time ?? '',
    expiration_clicks: link.expiration_clicks === null ? '' : String(link.expiration_clicks),
    target_type: String(link.target_type),
    country: keyed(link.country_target),
    platform: keyed(link.platform_target),
    language: keyed(link.language_target),
    rotation: (link.rotation_target ?? []).map((e) => ({
      key: '',
      value: e.value,
      weight: e.weight === undefined ? '' : String(e.weight),
    })),
    og_title: link.og_title ?? '',
    og_description: link.og_description ?? '',
    og_image: link.og_image ?? '',
    rules: recordRuleRows(link.rules),
    clear_password: false,
    clear_privacy_password: false,
    sent: new Set(),
  }
}

/** The row button pressed, if the form was sent by one (then nothing is saved). */
export function rowAction(raw: Raw): RowAction | null {
  // A button's value may arrive twice (htmx adds the pressed button to the form's fields).
  const given: unknown = Array.isArray(raw._action) ? raw._action[0] : raw._action
  const found = /^(add|remove)_(country|platform|language|rotation)(?:_(\d{1,3}))?$/.exec(
    typeof given === 'string' ? given : '',
  )
  if (!found) return null
  const list = found[2] as TargetList
  if (found[1] === 'add') return found[3] === undefined ? { add: list } : null
  return found[3] === undefined ? null : { remove: list, index: Number(found[3]) }
}

export function applyRowAction(values: LinkFormValues, action: RowAction): LinkFormValues {
  if ('add' in action) {
    const row =
      action.add === 'rotation' ? { key: '', value: '', weight: '' } : { key: '', value: '' }
    return { ...values, [action.add]: [...values[action.add], row] }
  }
  return { ...values, [action.remove]: values[action.remove].filter((_, i) => i !== action.index) }
}

/**
 * The API input the form stands for, in the API's own encoding (text, with empty meaning
 * "empty"), ready for the same normalising and validation as an API body.
 * A field the form did not send is left out (the API leaves it alone); the form sends all of
 * them, every list with at least one row, so an emptied list clears it. The edit form never
 * shows secrets: an empty password field keeps the stored one, and a
 * checkbox removes it. An unchanged title is not sent, so a fetched title does not become one
 * the user set (which the background fetch would then never replace).
 */
export function apiInput(
  values: LinkFormValues,
  mode: { edit: false } | { edit: true; title: string | null },
): Record<string, unknown> {
  const input: Record<string, unknown> = {
    url: values.url,
    alias: values.alias,
    space_id: values.space_id,
    pixel_ids: values.pixel_ids,
    tags: tagNamesOfText(values.tags),
    disabled: values.disabled,
    privacy: values.privacy,
    expiration_url: values.expiration_url,
    expiration_date: values.expiration_date,
    expiration_time: values.expiration_time,
    expiration_clicks: values.expiration_clicks,
    target_type: values.target_type,
    og_title: values.og_title,
    og_description: values.og_description,
    og_image: values.og_image,
  }
  for (const list of TARGET_LISTS) {
    input[list] = values[list].map((row) =>
      list !== 'rotation'
        ? { key: row.key, value: row.value }
        : row.weight
          ? { value: row.value, weight: row.weight }
          : { value: row.value },
    )
  }
  input.rules = rulesInput(values.rules)
  if (!mode.edit) {
    input.domain_id = values.domain_id
    input.password = values.password
    input.privacy_password = values.privacy_password
    if (values.title !== '') input.title = values.title
  } else {
    if (values.password !== '') input.password = values.password
    if (values.privacy_password !== '') input.privacy_password = values.privacy_password
    if (values.title !== (mode.title ?? '')) input.title = values.title
  }
  for (const name of Object.keys(input)) {
    if (!values.sent.has(name)) Reflect.deleteProperty(input, name)
  }
  if (mode.edit && values.clear_password) input.password = ''
  if (mode.edit && values.clear_privacy_password) input.privacy_password = ''
  return input
}

/** The names of a comma-separated text (the tags field), empty ones left out. */
export function tagNamesOfText(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
}

/**
 * What the rotation rows leave the destination URL, as the form says it under them (the
 * dashboard script says the same while weights are typed).
 */
export function rotationShare(rows: readonly TargetRow[]): string {
  const weights = rows.map((row) => (row.weight ?? '').trim()).filter((w) => w !== '')
  if (weights.length === 0)
    return 'Without weights, visitors take turns: the destination URL, then each row.'
  const sum = weights.reduce((total, w) => total + (/^\d{1,3}$/.test(w) ? Number(w) : 0), 0)
  if (sum > 100) return `The weights add up to ${sum}, more than 100.`
  return `The destination URL gets the other ${100 - sum} of every 100 visits.`
}
