/**
 * Lists over their bound, refused before any of their entries is looked at: a top-level field
 * whose schema is a list with `maxItems` and whose value is a longer list is taken out of the
 * input and reported as one `maxItems` issue ("The country field must not have more than 100
 * items."). Run before coercion and validation, so a list of 30,000 bad entries costs one
 * message and no work per entry.
 */
import type { SchemaIssue } from './validation.js'

interface ListSchema {
  type?: string | string[]
  maxItems?: number
}

export type ObjectSchema = { properties?: Record<string, ListSchema> }

/** The bounded lists of an object schema: each field's name and its `maxItems`. */
function boundedLists(schema: ObjectSchema): [string, number][] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const types = Array.isArray(property.type) ? property.type : [property.type]
    return types.includes('array') && typeof property.maxItems === 'number'
      ? [[name, property.maxItems] as [string, number]]
      : []
  })
}

/**
 * A function that takes the over-long lists out of an input of `schema` (in place) and returns
 * one issue for each, as the validator would have reported its `maxItems`.
 */
export function longListTaker(
  schema: ObjectSchema,
): (data: Record<string, unknown>) => SchemaIssue[] {
  const lists = boundedLists(schema)
  return (data) => {
    const issues: SchemaIssue[] = []
    for (const [name, limit] of lists) {
      const value = data[name]
      if (!Array.isArray(value) || value.length <= limit) continue
      Reflect.deleteProperty(data, name)
      issues.push({
        keyword: 'maxItems',
        instancePath: `/${name}`,
        params: { limit },
        message: `must NOT have more than ${limit} items`,
      })
    }
    return issues
  }
}

/** Whether `issue` is about the field `name` or something in it. */
export function concerns(issue: SchemaIssue, name: string): boolean {
  const path = issue.keyword === 'required' ? `/${String(issue.params.missingProperty)}` : ''
  const at = issue.instancePath + path
  return at === `/${name}` || at.startsWith(`/${name}/`)
}
