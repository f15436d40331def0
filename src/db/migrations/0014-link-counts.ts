import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/** The table of each user's number of links (internal: never dumped, see transfer/tables.ts). */
export const LINK_COUNTS = 'link_counts'

/** Its shape, for queries (it is not part of the dumped schema in db/types.ts). */
export type LinkCountsTable = {
  link_counts: { user_id: number; links: number }
}

/**
 * Each user's number of links, on SQLite, kept by triggers in the write's own transaction, so no
 * code path (API, dashboard, CLI, import, a restore) can forget it. The API's list of links
 * without a filter reads its total here instead of counting the user's links: at 1,000,000 links
 * that count took 24 ms (the whole of the index `links_user_id`), and `GET /api/v1/links`
 * answered 30 times a second.
 *
 * PostgreSQL keeps rows of changes instead (migration 0015): there the row of a user's count
 * would be locked by each create until it commits, so the creates of one user, which run side by
 * side in the pool, would queue behind each other. SQLite writes one transaction at a time
 * anyway; the trigger costs a create one more small row write.
 *
 * A user without links may have no row (or a row of 0). Deleting a user deletes the row.
 */
export function linkCounts(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'sqlite') return
      await sql`CREATE TABLE link_counts (
        user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        links INTEGER NOT NULL
      )`.execute(db)
      await sql`INSERT INTO link_counts (user_id, links)
        SELECT user_id, count(*) FROM links GROUP BY user_id`.execute(db)
      await sql`CREATE TRIGGER link_counts_insert AFTER INSERT ON links BEGIN
        INSERT INTO link_counts (user_id, links) VALUES (new.user_id, 1)
          ON CONFLICT (user_id) DO UPDATE SET links = links + 1;
      END`.execute(db)
      await sql`CREATE TRIGGER link_counts_delete AFTER DELETE ON links BEGIN
        UPDATE link_counts SET links = links - 1 WHERE user_id = old.user_id;
      END`.execute(db)
      await sql`CREATE TRIGGER link_counts_owner AFTER UPDATE OF user_id ON links
        WHEN old.user_id IS NOT new.user_id BEGIN
        UPDATE link_counts SET links = links - 1 WHERE user_id = old.user_id;
        INSERT INTO link_counts (user_id, links) VALUES (new.user_id, 1)
          ON CONFLICT (user_id) DO UPDATE SET links = links + 1;
      END`.execute(db)
    },
  }
}
