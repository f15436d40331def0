/**
 * The redirect rules of the link form as typed: rows of conditions and a URL, read from
 * `rules[i][conditions][j][type|key|value]` and `rules[i][url]`, and the editor's buttons
 * (`_rules_action=add`, `remove_2`, `up_2`, `down_2`, `add_condition_2`,
 * `remove_condition_2_1`), which re-render the form instead of saving it.
 */
import type { LinkRecord } from '../links/schema.js'
import { MAX_RULE_CONDITIONS, MAX_RULES } from '../links/redirect-rules.js'

export interface ConditionRow {
  type: string
  key: string
  value: string
}

export interface RuleRow {
  conditions: ConditionRow[]
  url: string
}

export type RuleAction =
  | { kind: 'add' }
  | { kind: 'remove' | 'up' | 'down' | 'add_condition'; rule: number }
  | { kind: 'remove_condition'; rule: number; condition: number }

type Raw = Record<string, unknown>

const text = (raw: Raw, name: string) => (typeof raw[name] === 'string' ? raw[name] : '')

/** The items of a bracket list as sent: qs gives an array, or an object past its limits. */
function listOf(value: unknown, limit: number): Raw[] {
  const entries = Array.isArray(value)
    ? value
    : typeof value === 'object' && value !== null
      ? Object.entries(value)
          .filter(([index]) => /^\d{1,6}$/.test(index))
          .sort(([a], [b]) => Number(a) - Number(b))
          .map(([, item]) => item as unknown)
      : []
  return entries
    .slice(0, limit)
    .map((item) => (typeof item === 'object' && item !== null ? (item as Raw) : {}))
}

export const blankCondition = (): ConditionRow => ({ type: '', key: '', value: '' })
export const blankRule = (): RuleRow => ({ conditions: [blankCondition()], url: '' })

/**
 * The rule rows of a sent form (at most one past each bound, so a longer list is still
 * refused by validation but costs nothing to read).
 */
export function ruleRows(value: unknown): RuleRow[] {
  return listOf(value, MAX_RULES + 1).map((rule) => ({
    conditions: listOf(rule.conditions, MAX_RULE_CONDITIONS + 1).map((c) => ({
      type: text(c, 'type'),
      key: text(c, 'key'),
      value: text(c, 'value'),
    })),
    url: text(rule, 'url'),
  }))
}

export function recordRuleRows(rules: LinkRecord['rules']): RuleRow[] {
  return rules.map((rule) => ({
    conditions: rule.conditions.map((c) => ({
      type: c.type,
      key: c.key ?? '',
      value: c.value ?? '',
    })),
    url: rule.url,
  }))
}

/** The API's `rules` for the rows, in its text encoding (empty meaning "empty"). */
export function rulesInput(rows: RuleRow[]): unknown[] {
  return rows.map((rule) => ({
    conditions: rule.conditions.map((c) => ({ type: c.type, key: c.key, value: c.value })),
    url: rule.url,
  }))
}

/** The editor's button pressed, if the form was sent by one. */
export function ruleAction(raw: Raw): RuleAction | null {
  // A button's value may arrive twice (htmx adds the pressed button to the form's fields).
  const given: unknown = Array.isArray(raw._rules_action) ? raw._rules_action[0] : raw._rules_action
  const value = typeof given === 'string' ? given : ''
  if (value === 'add') return { kind: 'add' }
  const one = /^(remove|up|down|add_condition)_(\d{1,2})$/.exec(value)
  if (one) return { kind: one[1] as 'remove', rule: Number(one[2]) }
  const two = /^remove_condition_(\d{1,2})_(\d{1,2})$/.exec(value)
  if (two) return { kind: 'remove_condition', rule: Number(two[1]), condition: Number(two[2]) }
  return null
}

function swap(rows: RuleRow[], a: number, b: number): RuleRow[] {
  if (a < 0 || b < 0 || a >= rows.length || b >= rows.length) return rows
  const out = [...rows]
  ;[out[a], out[b]] = [out[b]!, out[a]!]
  return out
}

export function applyRuleAction(rows: RuleRow[], action: RuleAction): RuleRow[] {
  switch (action.kind) {
    case 'add':
      return rows.length < MAX_RULES ? [...rows, blankRule()] : rows
    case 'remove':
      return rows.filter((_, i) => i !== action.rule)
    case 'up':
      return swap(rows, action.rule - 1, action.rule)
    case 'down':
      return swap(rows, action.rule, action.rule + 1)
    case 'add_condition':
      return rows.map((rule, i) =>
        i === action.rule && rule.conditions.length < MAX_RULE_CONDITIONS
          ? { ...rule, conditions: [...rule.conditions, blankCondition()] }
          : rule,
      )
    case 'remove_condition':
      return rows.map((rule, i) =>
        i === action.rule
          ? { ...rule, conditions: rule.conditions.filter((_, j) => j !== action.condition) }
          : rule,
      )
  }
}
