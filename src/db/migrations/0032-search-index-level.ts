import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/**
 * SQLite's search index in one segment, two levels above where `optimize` alone leaves it
 * (docs/adr/0009-search-index-merges-under-sustained-writes.md).
 *
 * FTS5 merges the segments of a level once it holds four, and `optimize` puts its one segment
 * on the level above the highest the index had: after the bulk load of migration 0020 that is a
 * level a grown index keeps segments a twentieth of that size on, so the whole index is merged
 * again after a few per cent more writes, a step on every create's transaction for seconds.
 * A second `optimize`, made to merge by a row written and deleted around it, puts the segment
 * two levels higher, where the index would have it had it grown by single writes.
 *
 * PostgreSQL's indexes have no such levels: nothing to do there.
 */
export function searchIndexLevel(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'sqlite') await settleSearchIndex(db)
    },
  }
}

/** The FTS5 index of the links in one segment, on the level of ADR 0009; none if it is empty. */
export async function settleSearchIndex(db: Kysely<unknown>): Promise<void> {
  const any = await sql`SELECT 1 FROM links_search LIMIT 1`.execute(db)
  if (any.rows.length === 0) return
  await sql`INSERT INTO links_search (links_search) VALUES ('optimize')`.execute(db)
  await sql`INSERT INTO links_search (rowid, alias, url, title) VALUES (0, 'level', 'level', 'level')`.execute(
    db,
  )
  await sql`INSERT INTO links_search (links_search, rowid, alias, url, title)
    VALUES ('delete', 0, 'level', 'level', 'level')`.execute(db)
  await sql`INSERT INTO links_search (links_search) VALUES ('optimize')`.execute(db)
}
