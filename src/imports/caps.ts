/**
 * What one user may ask of the import routes (`POST /api/v1/imports`, the dashboard's form).
 * `slink import-links`, run by the operator, has none of these caps.
 */

/** Rows read from one source; the import stops there, `failed`, with the rows before it done. */
export const MAX_ROWS_PER_IMPORT = 100_000

/**
 * Imports `queued` or `running` at once for one user, and start requests of one user a process
 * reads or handles at once (uploads without a record yet); one more is a 429.
 */
export const MAX_IMPORTS_IN_FLIGHT = 2

/** Invalid rows kept in an import's report (its counts stay exact). */
export const KEPT_INVALID_ROWS = 1_000

export const TOO_MANY_ROWS =
  `The source has more than ${MAX_ROWS_PER_IMPORT} rows: only the first ` +
  `${MAX_ROWS_PER_IMPORT} were read. Split the file (or ask the operator to run slink ` +
  'import-links, which has no such cap).'

export const TOO_MANY_IMPORTS = `At most ${MAX_IMPORTS_IN_FLIGHT} imports may run at once; wait for one to end.`
