/**
 * A rotation list as stored: destinations, and on a weighted rotation a weight on every entry
 * (visits in every 100; the main URL gets what is left). An entry with neither part is dropped;
 * a weight without a destination, or a missing weight beside given ones, is an error; so are
 * weights adding up to more than 100 (reported on `rotation`). `null`: nothing left.
 */
import type { RotationEntry } from '../db/types.js'
import type { FieldErrors } from '../shared/errors.js'
import { MAX_WEIGHT } from './targeting-keys.js'

type RawRotationEntry = { value?: string | null; weight?: number | null }

export function rotationEntries(
  raw: (RawRotationEntry | undefined)[],
  errors: FieldErrors,
): RotationEntry[] | null {
  const given = (entry: RawRotationEntry, at: string, part: 'value' | 'weight') =>
    (entry[part] !== undefined && entry[part] !== null && entry[part] !== '') ||
    errors.has(`${at}.${part}`)
  const kept = raw.flatMap((entry, i) => {
    if (entry === undefined) return []
    const at = `rotation.${i}`
    const hasValue = given(entry, at, 'value')
    const hasWeight = given(entry, at, 'weight')
    return hasValue || hasWeight ? [{ entry, at, hasValue, hasWeight }] : []
  })
  const weighted = kept.some((k) => k.hasWeight)
  // A weight that failed validation leaves the sum unknown: it is not reported as well.
  const sumKnown = kept.every((k) => !errors.has(`${k.at}.weight`))
  const out: RotationEntry[] = []
  let sum = 0
  for (const { entry, at, hasValue, hasWeight } of kept) {
    if (!hasValue) errors.add(`${at}.value`, `The ${at}.value field is required.`)
    if (weighted && !hasWeight) {
      errors.add(
        `${at}.weight`,
        `The ${at}.weight field is required when any rotation entry has a weight.`,
      )
    }
    const { value, weight } = entry
    if (typeof value !== 'string' || value === '') continue
    if (!weighted) out.push({ value })
    else if (typeof weight === 'number') {
      sum += weight
      out.push({ value, weight })
    }
  }
  if (sumKnown && sum > MAX_WEIGHT) {
    errors.add(
      'rotation',
      `The rotation weights must add up to at most ${MAX_WEIGHT}; they add up to ${sum}.`,
    )
  }
  return out.length > 0 ? out : null
}
