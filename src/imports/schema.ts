/** Request and response shapes of `/api/v1/imports`. */
import type { ImportRowResultRow, ImportRunRow } from '../db/types.js'
import { isoMicro } from '../shared/time.js'
import {
  IntegerEnum,
  Nullable,
  PER_PAGE,
  StringEnum,
  Timestamp,
  Type,
  type Static,
} from '../shared/schema.js'
import { OUTCOMES } from './planner.js'
import { SOURCE_NAMES } from './sources/index.js'

export const ImportCreateBody = Type.Object({
  source: Type.Optional(StringEnum(SOURCE_NAMES, { description: 'Where the links come from.' })),
  file: Type.Optional(
    Type.String({
      contentMediaType: 'application/octet-stream',
      description: `The export file (multipart file part, at most 50 MiB) for ${SOURCE_NAMES.slice(0, 6).join(', ')}.`,
    }),
  ),
  url: Type.Optional(
    Type.String({
      maxLength: 2048,
      description: 'Base URL of the source instance (phpshort, shlink, kutt).',
    }),
  ),
  key: Type.Optional(Type.String({ maxLength: 1024, description: "The source API's key." })),
  dry_run: Type.Optional(
    IntegerEnum([0, 1] as const, { description: '1: plan and report only. Default 0.' }),
  ),
  on_conflict: Type.Optional(
    StringEnum(['skip', 'rename'] as const, {
      description: 'An alias taken here: skip the row (default) or rename it.',
    }),
  ),
})
export type ImportCreateBody = Static<typeof ImportCreateBody>

const Counts = Type.Object(
  Object.fromEntries(OUTCOMES.map((o) => [o, Type.Integer()])) as Record<
    (typeof OUTCOMES)[number],
    ReturnType<typeof Type.Integer>
  >,
)

export const ImportRecord = Type.Object({
  id: Type.Integer(),
  source: Type.String(),
  origin: Type.String({ description: 'The file name, or the base URL.' }),
  status: StringEnum(['queued', 'running', 'done', 'failed'] as const),
  dry_run: Type.Boolean(),
  on_conflict: StringEnum(['skip', 'rename'] as const),
  total: Type.Integer({ description: 'Rows read so far.' }),
  counts: Counts,
  error: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  finished_at: Nullable(Timestamp),
})
export type ImportRecord = Static<typeof ImportRecord>

export const ImportRowRecord = Type.Object({
  line: Type.Integer({ description: 'Position in the source, from 1.' }),
  outcome: StringEnum(OUTCOMES),
  source_key: Nullable(Type.String()),
  alias: Nullable(Type.String()),
  link_id: Nullable(Type.Integer()),
  message: Nullable(Type.String()),
})
export type ImportRowRecord = Static<typeof ImportRowRecord>

export const ImportRowsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'From 1' })),
  per_page: Type.Optional(IntegerEnum(PER_PAGE, { description: 'Default 10' })),
  outcome: Type.Optional(StringEnum(OUTCOMES, { description: 'Only rows with this outcome.' })),
})
export type ImportRowsQuery = Static<typeof ImportRowsQuery>

export function presentImport(row: ImportRunRow): ImportRecord {
  return {
    id: row.id,
    source: row.source,
    origin: row.origin,
    status: row.status as ImportRecord['status'],
    dry_run: row.dry_run === 1,
    on_conflict: row.on_conflict === 'rename' ? 'rename' : 'skip',
    total: row.total,
    counts: {
      created: row.created,
      renamed: row.renamed,
      skipped: row.skipped,
      duplicate: row.duplicate,
      invalid: row.invalid,
      unknown_domain: row.unknown_domain,
    },
    error: row.error,
    created_at: isoMicro(row.created_at)!,
    updated_at: isoMicro(row.updated_at)!,
    finished_at: isoMicro(row.finished_at),
  }
}

export function presentImportRow(row: ImportRowResultRow): ImportRowRecord {
  return {
    line: row.line,
    outcome: row.outcome as ImportRowRecord['outcome'],
    source_key: row.source_key,
    alias: row.alias,
    link_id: row.link_id,
    message: row.message,
  }
}
