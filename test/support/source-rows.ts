import type { SourceRow } from '../../src/imports/row.js'

/** Only what a source gave in a row (no nulls, zero clicks, false flags or empty lists). */
export function given(row: SourceRow): Partial<SourceRow> {
  return Object.fromEntries(
    Object.entries(row).filter(
      ([k, v]) =>
        v !== null &&
        !(k === 'clicks' && v === 0) &&
        !(k === 'disabled' && !v) &&
        !(Array.isArray(v) && v.length === 0),
    ),
  )
}
