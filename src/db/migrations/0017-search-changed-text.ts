import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/**
 * SQLite: a link goes back to the search indexer (`links_search_pending`, migration 0011) only
 * when its alias, URL or title changes value. The trigger fired on every update that named one
 * of them, and an update names the title whenever the client sends it: a client that sends the
 * whole form (as phpShort's does) made the indexer delete and write again the trigram and suffix
 * rows of every link it updated, though nothing the indexes hold had changed. That was 94 µs of
 * the click-writing thread an update, about a third of all the CPU an update cost, on two cores
 * the load generator shares.
 *
 * `IS NOT` compares exactly: a change of case alone (an alias `Abc` renamed `abc`) is a change,
 * and is indexed again as before. PostgreSQL's alias trigger has compared the values since
 * migration 0013; its trigram indexes are the table's own.
 */
export function searchChangedText(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'sqlite') return
      await sql`DROP TRIGGER links_search_update`.execute(db)
      await sql`CREATE TRIGGER links_search_update AFTER UPDATE OF alias, url, title ON links
        WHEN old.alias IS NOT new.alias OR old.url IS NOT new.url OR old.title IS NOT new.title
        BEGIN
          INSERT OR IGNORE INTO links_search_pending (link_id, indexed_alias)
            VALUES (old.id, old.alias);
        END`.execute(db)
    },
  }
}
