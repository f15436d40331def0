/**
 * The link form's UTM section as the server reads it: the five utm_* fields it sent, merged
 * into the destination URL's query (so the section works without JavaScript), and its two
 * buttons (`_action=utm_apply`: fill the fields from the chosen template; `_action=utm_save`:
 * keep the fields as a template), which re-render the form without saving the link.
 */
import type { UtmTemplateRow } from '../db/types.js'
import { mergeUtm, readUtm } from '../utm/query.js'
import { UTM_PARAMETERS, type UtmParameter } from '../utm/schema.js'

export type UtmFieldValues = Record<UtmParameter, string>

export interface UtmTemplateChoice {
  id: number
  name: string
  values: UtmFieldValues
}

/** What the section shows besides the fields, which are read from the URL. */
export interface UtmFormState {
  templates: UtmTemplateChoice[]
  /** The template chosen in the chooser (its id as text, or ''). */
  chosen: string
  /** The name typed for "save as template". */
  templateName: string
  errors: Record<string, string[]>
  notice: string | null
}

export type UtmAction = 'apply' | 'save'

type Raw = Record<string, unknown>

function text(raw: Raw, name: string): string | undefined {
  const value = raw[name]
  return typeof value === 'string' ? value : undefined
}

/** The utm_* fields the form sent (a field it did not send leaves its parameter alone). */
export function sentUtm(raw: Raw): Partial<UtmFieldValues> {
  const out: Partial<UtmFieldValues> = {}
  for (const name of UTM_PARAMETERS) {
    const value = text(raw, name)
    if (value !== undefined) out[name] = value.trim()
  }
  return out
}

/** The URL with `given` written into its query; an empty URL stays empty. */
export function withUtm(url: string, given: Partial<UtmFieldValues>): string {
  return url.trim() === '' ? url : mergeUtm(url, given, UTM_PARAMETERS)
}

/** The five fields as the URL holds them ('' for a parameter it has not). */
export function utmFields(url: string): UtmFieldValues {
  const found = readUtm(url, UTM_PARAMETERS)
  return Object.fromEntries(UTM_PARAMETERS.map((p) => [p, found[p] ?? ''])) as UtmFieldValues
}

/** A template's values as fields: one it does not set is emptied (removed from the URL). */
export function templateChoice(row: UtmTemplateRow): UtmTemplateChoice {
  const values = Object.fromEntries(UTM_PARAMETERS.map((p) => [p, row[p] ?? '']))
  return { id: row.id, name: row.name, values: values as UtmFieldValues }
}

export function utmAction(raw: Raw): UtmAction | null {
  const given: unknown = Array.isArray(raw._action) ? raw._action[0] : raw._action
  return given === 'utm_apply' ? 'apply' : given === 'utm_save' ? 'save' : null
}

/** The section's summary: the parameters set, or that there are none. */
export function utmSummary(url: string): string {
  const fields = utmFields(url)
  const set = UTM_PARAMETERS.filter((p) => fields[p] !== '').map(
    (p) => `${p.slice(4)} ${fields[p]}`,
  )
  return set.length === 0 ? 'No UTM parameters' : set.join(' · ')
}
