import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/**
 * The links' search on the databases' own substring indexes, kept by the database in the
 * write's own transaction (docs/adr/0001-search-on-database-indexes.md).
 *
 * SQLite: an FTS5 table with the trigram tokenizer over alias, URL and title, reading its text
 * from `links` (external content) and kept by triggers. An update that leaves the three values
 * as they were does not touch it. The pending table, the alias suffix table and the contentless
 * index of migration 0011 go.
 *
 * PostgreSQL: pg_trgm GIN indexes on the lower-cased alias, URL and title, built with
 * `fastupdate = off`, so that a write updates the index at once instead of adding to a pending
 * list that every search reads whole. The alias suffix table of migration 0013 and its triggers
 * go. Where the server has no pg_trgm, search stays correct and scans.
 *
 * Writes to links wait for the migration (it runs in one transaction); on SQLite the index is
 * filled from the links in one pass.
 */
export function standardSearch(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'sqlite') await upSqlite(db)
      else await upPostgres(db)
    },
  }
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  for (const name of ['links_search_insert', 'links_search_delete', 'links_search_update']) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(name)}`.execute(db)
  }
  await sql`DROP TABLE IF EXISTS links_search_pending`.execute(db)
  await sql`DROP TABLE IF EXISTS links_search_suffixes`.execute(db)
  await sql`DROP TABLE IF EXISTS links_search`.execute(db)
  await sql`CREATE VIRTUAL TABLE links_search USING fts5(alias, url, title,
    content='links', content_rowid='id', tokenize='trigram')`.execute(db)
  await sql`CREATE TRIGGER links_search_insert AFTER INSERT ON links BEGIN
    INSERT INTO links_search (rowid, alias, url, title) VALUES (new.id, new.alias, new.url, new.title);
  END`.execute(db)
  await sql`CREATE TRIGGER links_search_delete AFTER DELETE ON links BEGIN
    INSERT INTO links_search (links_search, rowid, alias, url, title)
      VALUES ('delete', old.id, old.alias, old.url, old.title);
  END`.execute(db)
  await sql`CREATE TRIGGER links_search_update AFTER UPDATE OF alias, url, title ON links
    WHEN old.alias IS NOT new.alias OR old.url IS NOT new.url OR old.title IS NOT new.title
    BEGIN
      INSERT INTO links_search (links_search, rowid, alias, url, title)
        VALUES ('delete', old.id, old.alias, old.url, old.title);
      INSERT INTO links_search (rowid, alias, url, title) VALUES (new.id, new.alias, new.url, new.title);
    END`.execute(db)
  await sql`INSERT INTO links_search (links_search) VALUES ('rebuild')`.execute(db)
  await sql`INSERT INTO links_search (links_search) VALUES ('optimize')`.execute(db)
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  for (const kind of ['insert', 'delete', 'update']) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(`links_alias_suffixes_${kind}`)} ON links`.execute(db)
    await sql`DROP FUNCTION IF EXISTS ${sql.id(`slink_alias_suffixes_${kind}`)}()`.execute(db)
  }
  await sql`DROP TABLE IF EXISTS links_search_suffixes`.execute(db)
  const available = await sql<{ name: string }>`
    SELECT name FROM pg_available_extensions WHERE name = 'pg_trgm'`.execute(db)
  if (available.rows.length === 0) return
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db)
  // Built anew: an index of migration 0008 has a pending list, which a rebuild leaves behind.
  for (const column of ['alias', 'url', 'title']) {
    const index = sql.id(`links_${column}_trigrams`)
    await sql`DROP INDEX IF EXISTS ${index}`.execute(db)
    await sql`CREATE INDEX ${index} ON links
      USING gin (lower(${sql.ref(column)}) gin_trgm_ops) WITH (fastupdate = off)`.execute(db)
  }
}
