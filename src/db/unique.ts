import { isUniqueViolation } from './errors.js'
import type { FieldErrors } from '../shared/errors.js'

/**
 * Runs a write whose uniqueness was checked beforehand; if a concurrent write took the value
 * in between, the unique index refuses it and this reports `field` as taken instead of failing.
 */
export async function writeUnique<T>(
  errors: FieldErrors,
  field: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    errors.add(field, takenMessage(field))
    errors.throwIfAny()
    throw error
  }
}

export function takenMessage(field: string): string {
  return `The ${field.replace(/_/g, ' ')} has already been taken.`
}
