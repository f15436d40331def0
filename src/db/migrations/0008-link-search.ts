import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'
import { columnsFor } from './columns.js'

/**
 * What makes a large links list fast:
 * - a substring index over alias, URL and title: on SQLite an FTS5 table with the trigram
 *   tokenizer (`links_search`, kept by triggers, holding no copy of the text), on PostgreSQL
 *   pg_trgm GIN indexes on the lower-cased columns (left out, with the search still correct but
 *   scanning, where the server has no pg_trgm);
 * - an index for the click sort (`user_id, clicks, id`);
 * - `title_fetch_at`: when a background title fetch was asked for and has not finished; fetches
 *   left pending by a stop are resumed at the next start.
 */
export function linkSearch(dialect: Dialect) {
  const { big } = columnsFor(dialect)
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('links').addColumn('title_fetch_at', big).execute()
      await db.schema
        .createIndex('links_user_clicks')
        .on('links')
        .columns(['user_id', 'clicks', 'id'])
        .execute()
      if (dialect === 'sqlite') {
        await sql`CREATE INDEX links_title_fetch ON links (title_fetch_at) WHERE title_fetch_at IS NOT NULL`.execute(
          db,
        )
        await sql`CREATE VIRTUAL TABLE links_search USING fts5(alias, url, title,
          content='links', content_rowid='id', tokenize='trigram')`.execute(db)
        await sql`CREATE TRIGGER links_search_insert AFTER INSERT ON links BEGIN
          INSERT INTO links_search (rowid, alias, url, title) VALUES (new.id, new.alias, new.url, new.title);
        END`.execute(db)
        await sql`CREATE TRIGGER links_search_delete AFTER DELETE ON links BEGIN
          INSERT INTO links_search (links_search, rowid, alias, url, title)
            VALUES ('delete', old.id, old.alias, old.url, old.title);
        END`.execute(db)
        await sql`CREATE TRIGGER links_search_update AFTER UPDATE OF alias, url, title ON links BEGIN
          INSERT INTO links_search (links_search, rowid, alias, url, title)
            VALUES ('delete', old.id, old.alias, old.url, old.title);
          INSERT INTO links_search (rowid, alias, url, title) VALUES (new.id, new.alias, new.url, new.title);
        END`.execute(db)
        await sql`INSERT INTO links_search (links_search) VALUES ('rebuild')`.execute(db)
        return
      }
      await sql`CREATE INDEX links_title_fetch ON links (title_fetch_at) WHERE title_fetch_at IS NOT NULL`.execute(
        db,
      )
      const available = await sql<{ name: string }>`
        SELECT name FROM pg_available_extensions WHERE name = 'pg_trgm'`.execute(db)
      if (available.rows.length === 0) return
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db)
      for (const column of ['alias', 'url', 'title']) {
        await sql`CREATE INDEX ${sql.id(`links_${column}_trigrams`)} ON links
          USING gin (lower(${sql.ref(column)}) gin_trgm_ops)`.execute(db)
      }
    },
  }
}
