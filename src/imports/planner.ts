/**
 * Decides each source row's outcome before anything is written, with the link rules of
 * links/ and the formats of the API: the same decision serves the dry run and the real run.
 * Outcomes, in the order they are checked:
 * - `duplicate`: this source row was imported before (or earlier in this run): nothing to do;
 * - `invalid`: unreadable row, missing or unsafe URL, bad alias, title, password or expiry;
 * - `unknown_domain`: the row's domain is not one the owner may use;
 * - `skipped`: its alias is taken on that domain (or reserved) and the run skips conflicts;
 * - `renamed`: its alias is taken (or reserved) and the run renames: `alias-2`, `alias-3`…;
 * - `created`: the link is made, with its original alias where it had one.
 */
import { expiryInstant, isReservedAlias, randomAlias } from '../links/field-rules.js'
import { FieldErrors } from '../shared/errors.js'
import { FORMATS, isHttpUrl } from '../shared/formats.js'
import { tagNameList } from '../tags/names.js'
import { checkExtra, type ExtraDraft } from './extra.js'
import type { DayClicks, SourceRow } from './row.js'

export type Outcome = 'created' | 'renamed' | 'skipped' | 'duplicate' | 'invalid' | 'unknown_domain'
export const OUTCOMES: readonly Outcome[] = [
  'created',
  'renamed',
  'skipped',
  'duplicate',
  'invalid',
  'unknown_domain',
]

export type OnConflict = 'skip' | 'rename'

/** A link the writer can insert (the password still in clear: the writer hashes it). */
export interface LinkDraft {
  domainId: number
  alias: string
  url: string
  title: string | null
  space: string | null
  /** Tag names, trimmed, one spelling each. */
  tags: string[]
  password: string | null
  endsAt: number | null
  expirationClicks: number | null
  disabled: boolean
  clicks: number
  createdAt: number | null
  /** Clicks per day the source logged (the rest of `clicks` counts on the import day). */
  history: DayClicks[]
  /** Targeting, privacy, expiry URL, pixels (phpShort's API only; empty otherwise). */
  extra: ExtraDraft
}

export interface Plan {
  line: number
  sourceKey: string
  outcome: Outcome
  alias: string | null
  message: string | null
  /** Set for `created` and `renamed`. */
  link: LinkDraft | null
}

export interface PlanContext {
  onConflict: OnConflict
  timeZone: string
  defaultDomainId: number
  /** The id of a domain the owner may use (their own or a global one), by host name. */
  domainId(name: string): number | undefined
  /** This source key was imported before, or planned earlier in this run. */
  keyKnown(key: string): Promise<boolean>
  /** The alias is in use on the domain, or planned earlier in this run. */
  aliasTaken(domainId: number, alias: string): Promise<boolean>
}

const MAX_URL = 2048
const MAX_ALIAS = 255
const MAX_TITLE = 255
const MAX_PASSWORD = 128
const MAX_SPACE = 32

/** The key of a row in its source: its own id, else its domain and alias, else its URL. */
export function sourceKeyOf(row: SourceRow): string {
  if (row.key !== null) return row.key
  if (row.alias !== null) return `${row.domain ?? ''}/${row.alias}`
  return `url:${row.url ?? `line ${row.line}`}`
}

/** What is wrong with a row (one sentence per field), before domains and aliases. */
export function rowProblems(row: SourceRow): string[] {
  if (row.problem !== null) return [row.problem]
  const problems: string[] = []
  if (row.url === null) problems.push('The url field is required.')
  else if (row.url.length > MAX_URL || !isHttpUrl(row.url))
    problems.push('The url field must be a valid http or https URL.')
  if (row.alias !== null) {
    if (row.alias.length > MAX_ALIAS)
      problems.push(`The alias field must not be greater than ${MAX_ALIAS} characters.`)
    else if (!FORMATS['alpha-dash'](row.alias))
      problems.push('The alias field must only contain letters, numbers, dashes, and underscores.')
  }
  if (row.space !== null && row.space.length > MAX_SPACE)
    problems.push(`The space field must not be greater than ${MAX_SPACE} characters.`)
  const tagErrors = new FieldErrors()
  tagNameList('tags', row.tags, tagErrors)
  problems.push(...Object.values(tagErrors.messages).flat())
  if (row.password !== null && row.password.length > MAX_PASSWORD)
    problems.push(`The password field must not be greater than ${MAX_PASSWORD} characters.`)
  if (row.expirationDate !== null && !FORMATS['date-ymd'](row.expirationDate))
    problems.push('The expiration date field must match the format Y-m-d.')
  if (row.expirationTime !== null && !FORMATS['time-hm'](row.expirationTime))
    problems.push('The expiration time field must match the format H:i.')
  return problems
}

export async function planRow(row: SourceRow, context: PlanContext): Promise<Plan> {
  const sourceKey = sourceKeyOf(row)
  const plan = (outcome: Outcome, message: string | null, link: LinkDraft | null = null): Plan => ({
    line: row.line,
    sourceKey,
    outcome,
    alias: link?.alias ?? row.alias,
    message,
    link,
  })
  if (await context.keyKnown(sourceKey)) return plan('duplicate', 'Imported before.')
  const problems = rowProblems(row)
  const extra = checkExtra(row.extra)
  if (problems.length === 0) problems.push(...extra.problems)
  let endsAt = row.endsAt
  if (problems.length === 0 && endsAt === null) {
    const errors = new FieldErrors()
    const found = expiryInstant(
      row.expirationDate ?? undefined,
      row.expirationTime ?? undefined,
      context.timeZone,
      errors,
    )
    if (!errors.empty) problems.push(...Object.values(errors.messages).flat())
    else endsAt = found ?? null
  }
  if (problems.length > 0) return plan('invalid', problems.join(' '))

  const domainId = row.domain === null ? context.defaultDomainId : context.domainId(row.domain)
  if (domainId === undefined)
    return plan('unknown_domain', `${row.domain} is not a domain of yours.`)

  let alias = row.alias
  let outcome: Outcome = 'created'
  let message: string | null = null
  const reserved = alias !== null && isReservedAlias(alias)
  if (alias !== null && (reserved || (await context.aliasTaken(domainId, alias)))) {
    if (context.onConflict === 'skip')
      return plan(
        'skipped',
        reserved ? 'The alias is reserved.' : 'The alias has already been taken.',
      )
    const original = alias
    alias = await renamed(original, domainId, context)
    outcome = 'renamed'
    message = reserved
      ? `The alias ${original} is reserved.`
      : `The alias ${original} has already been taken.`
  }
  alias ??= await freeRandomAlias(domainId, context)
  const notes = [...row.notes, ...extra.notes]
  if (notes.length > 0) message = [message, ...notes].filter(Boolean).join(' ')
  return plan(outcome, message, {
    domainId,
    alias,
    url: row.url!,
    // Other shorteners allow longer titles: the first 255 characters are kept.
    title: row.title === null ? null : [...row.title].slice(0, MAX_TITLE).join(''),
    space: row.space,
    tags: tagNameList('tags', row.tags, new FieldErrors()),
    password: row.password,
    endsAt,
    expirationClicks: row.expirationClicks === 0 ? null : row.expirationClicks,
    disabled: row.disabled,
    clicks: row.clicks,
    createdAt: row.createdAt,
    history: row.history,
    extra: extra.draft,
  })
}

async function renamed(alias: string, domainId: number, context: PlanContext): Promise<string> {
  for (let n = 2; ; n++) {
    const suffix = `-${n}`
    const candidate = `${alias.slice(0, MAX_ALIAS - suffix.length)}${suffix}`
    if (!(await context.aliasTaken(domainId, candidate))) return candidate
  }
}

async function freeRandomAlias(domainId: number, context: PlanContext): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const alias = randomAlias(attempt)
    if (!isReservedAlias(alias) && !(await context.aliasTaken(domainId, alias))) return alias
  }
}
