/**
 * The dump format (version 1), JSON Lines in UTF-8:
 *   1. a header: format, version, source engine, schema migrations, and per table its columns,
 *      row count and last id handed out;
 *   2. per table, in the header's order: `{"table":"<name>"}`, then one JSON array per row,
 *      values in the header's column order;
 *   3. an end line: `{"end":true,"rows":<total>,"sha256":"<hex of every byte before it>"}`.
 * docs/transfer.md describes it for people; this file is what the code checks.
 */
import { createRequire } from 'node:module'

export const DUMP_FORMAT = 'slink-dump'
export const DUMP_VERSION = 1

export class TransferError extends Error {}

export interface DumpTable {
  name: string
  columns: string[]
  rows: number
  /** The highest id ever handed out (deleted rows included), or null: no id sequence. */
  last_id: number | null
}

export interface DumpHeader {
  format: typeof DUMP_FORMAT
  version: typeof DUMP_VERSION
  generator: string
  created_at: string
  source: 'sqlite' | 'postgres'
  migrations: string[]
  tables: DumpTable[]
}

export interface DumpTrailer {
  end: true
  rows: number
  sha256: string
}

export function generatorName(): string {
  const pkg = createRequire(import.meta.url)('../../package.json') as { version?: unknown }
  return `slink ${String(pkg.version ?? 'unknown')}`
}

const NOT_A_DUMP = 'not a slink dump (its first line is not a slink-dump header)'

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0
const isNames = (v: unknown): v is string[] =>
  Array.isArray(v) &&
  v.every((s) => typeof s === 'string' && s !== '') &&
  new Set(v).size === v.length

function table(value: unknown, index: number): DumpTable {
  const t = record(value)
  const bad = (what: string) =>
    new TransferError(`malformed dump header: table ${index + 1} ${what}`)
  if (!t || typeof t.name !== 'string' || t.name === '') throw bad('has no name')
  if (!isNames(t.columns) || t.columns.length === 0) throw bad('has no valid column list')
  if (!isCount(t.rows)) throw bad('has no valid row count')
  if (t.last_id !== null && !isCount(t.last_id)) throw bad('has an invalid last_id')
  return { name: t.name, columns: t.columns, rows: t.rows, last_id: t.last_id }
}

/** Reads and checks the first line; a dump of a newer format version is refused by name. */
export function readHeader(line: string | undefined): DumpHeader {
  if (line === undefined) throw new TransferError('the input is empty, not a slink dump')
  let parsed: unknown
  try {
    parsed = JSON.parse(line)
  } catch {
    throw new TransferError(NOT_A_DUMP)
  }
  const h = record(parsed)
  if (
    !h ||
    h.format !== DUMP_FORMAT ||
    !Number.isSafeInteger(h.version) ||
    (h.version as number) < 1
  )
    throw new TransferError(NOT_A_DUMP)
  if (h.version !== DUMP_VERSION) {
    throw new TransferError(
      `the dump has format version ${String(h.version)}, newer than this slink reads (${DUMP_VERSION}): import it with a newer slink`,
    )
  }
  if (h.source !== 'sqlite' && h.source !== 'postgres')
    throw new TransferError('malformed dump header: unknown source engine')
  if (!isNames(h.migrations) || h.migrations.length === 0)
    throw new TransferError('malformed dump header: no valid migration list')
  if (!Array.isArray(h.tables)) throw new TransferError('malformed dump header: no table list')
  const tables = h.tables.map(table)
  if (new Set(tables.map((t) => t.name)).size !== tables.length)
    throw new TransferError('malformed dump header: a table is listed twice')
  return {
    format: DUMP_FORMAT,
    version: DUMP_VERSION,
    generator: typeof h.generator === 'string' ? h.generator : 'unknown',
    created_at: typeof h.created_at === 'string' ? h.created_at : '',
    source: h.source,
    migrations: h.migrations,
    tables,
  }
}

/** The end line, or null when `value` is not one. */
export function asTrailer(value: unknown): DumpTrailer | null {
  const t = record(value)
  if (!t || t.end !== true || !isCount(t.rows) || typeof t.sha256 !== 'string') return null
  return { end: true, rows: t.rows, sha256: t.sha256 }
}

/** The table a section line starts, or null when `value` is not one. */
export function asSection(value: unknown): string | null {
  const s = record(value)
  return s && typeof s.table === 'string' && Object.keys(s).length === 1 ? s.table : null
}
