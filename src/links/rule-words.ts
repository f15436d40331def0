/** A redirect rule's conditions in words, as the preview page and the dashboard show them. */
import type { StoredCondition } from './redirect-rules.js'

/** One condition: `country is FR`, `before 2026-05-01T10:00:00.000000Z`, `query ref is x`. */
export function conditionWords(condition: StoredCondition): string {
  const { type, key, value } = condition
  switch (type) {
    case 'before':
    case 'after':
      return `${type} ${value ?? ''}`
    case 'query':
      return value === undefined ? `query has ${key ?? ''}` : `query ${key ?? ''} is ${value}`
    default:
      return `${type} is ${value ?? ''}`
  }
}

/** The conditions of a rule: `If country is FR and device is mobile`. */
export function ruleWords(conditions: readonly StoredCondition[]): string {
  return `If ${conditions.map(conditionWords).join(' and ')}`
}
