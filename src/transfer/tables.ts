/**
 * Every table a dump carries, parents before children: the order rows are written, read and
 * inserted in, so foreign keys always point backwards. The list is typed against the schema in
 * db/types.ts: a table added there without an entry here does not compile, and the export
 * refuses a database holding a table that is not listed (see transfer/source-check.ts), so no
 * table can be left behind silently.
 */
import type { Database } from '../db/types.js'

export type TableName = keyof Database & string

export interface TableSpec {
  /**
   * `id`: read in id order (ids are kept, and they are the rowid on SQLite). `null`: a table
   * without an id, read in storage order: insertion order for the tables that have a rowid,
   * primary-key order for `click_stats` on SQLite (a WITHOUT ROWID table since migration 0003).
   */
  readonly orderBy: 'id' | null
}

export const TABLES: Readonly<Record<TableName, TableSpec>> = {
  users: { orderBy: 'id' },
  api_keys: { orderBy: 'id' },
  domains: { orderBy: 'id' },
  spaces: { orderBy: 'id' },
  pixels: { orderBy: 'id' },
  links: { orderBy: 'id' },
  link_pixels: { orderBy: null },
  tags: { orderBy: 'id' },
  link_tags: { orderBy: null },
  settings: { orderBy: null },
  clicks: { orderBy: null },
  click_stats: { orderBy: null },
  click_visitors: { orderBy: null },
  click_stream: { orderBy: 'id' },
  click_stream_lease: { orderBy: null },
  sessions: { orderBy: null },
  password_links: { orderBy: 'id' },
  webhooks: { orderBy: 'id' },
  webhook_outbox: { orderBy: 'id' },
  webhook_attempts: { orderBy: 'id' },
  imports: { orderBy: 'id' },
  import_rows: { orderBy: null },
  import_keys: { orderBy: null },
  utm_templates: { orderBy: 'id' },
}

/** The tables in dump order. */
export const TABLE_ORDER: readonly TableName[] = Object.keys(TABLES) as TableName[]

export function isListedTable(name: string): name is TableName {
  return Object.hasOwn(TABLES, name)
}

/**
 * Tables of SQLite itself and of the migrator, SQLite's search indexes of the links (an FTS5
 * table and its shadow tables, the alias suffixes and the links waiting for them, migrations 0008
 * and 0011, filled from the links as they arrive), PostgreSQL's alias suffixes (migration 0013,
 * kept by triggers as an import inserts the links), the auth generation counter (migration
 * 0012) and the counts of each user's links (migrations 0014 and 0015, kept by triggers too):
 * never dumped (the target's migrator writes its own).
 */
export function isInternalTable(name: string): boolean {
  return (
    name.startsWith('kysely_') ||
    name.startsWith('sqlite_') ||
    name === 'links_search' ||
    name === 'auth_generation' ||
    name === 'link_counts' ||
    name === 'link_count_deltas' ||
    name.startsWith('links_search_')
  )
}
