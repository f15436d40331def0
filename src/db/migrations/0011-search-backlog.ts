import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/**
 * The links' search index, off the write path, and an alias search that reads only its matches.
 *
 * SQLite. The FTS5 trigram index of migration 0008, kept by triggers, made every write commit
 * a new FTS5 segment and now and then merge segments: a single-row write went from about 50 µs
 * to 500 µs on average, with stalls of 15 ms (p99) to 190 ms. Now:
 * - the write only records which link changed: triggers on insert, delete and `UPDATE OF alias,
 *   url, title` put its id in `links_search_pending` (`INSERT OR IGNORE`, a rowid insert), with
 *   the alias the suffix table holds for it (NULL for a new link). `OR IGNORE` keeps the first
 *   record since the last indexing, which is the one the index holds, however often the link
 *   changes before it is indexed;
 * - an indexer (links/search-indexer.ts) moves pending links into the indexes in batches, one
 *   transaction a batch, with a bounded amount of FTS5 merge work per batch (`automerge` off,
 *   an explicit `merge` of a few pages after each batch);
 * - `links_search` is now contentless with `contentless_delete=1` over URL and title only: a
 *   link is removed by its rowid, without its old text;
 * - the alias search reads `links_search_suffixes`: every lower-cased suffix of every alias
 *   (aliases are `[A-Za-z0-9_-]`: one suffix per character), so "alias contains t" is the range
 *   `t <= suffix < t || U+10FFFF`, which reads only the suffixes that start with t (111 rows
 *   for `b1234` in a million `b…` aliases, where its trigrams' posting lists held 111,111);
 * - the answer never depends on the indexer: a search takes the index hits and every pending
 *   link as candidates, and the exact case-insensitive comparison decides (links/store.ts).
 *
 * The pending table and the suffix table start with `links_search_`: internal, never dumped
 * (transfer/tables.ts); an import's links reach them through the same triggers.
 *
 * PostgreSQL kept its pg_trgm indexes (migration 0008) here: a GIN index defers its work (pending
 * list), and the same suffix table there, kept by a trigger, was measured at 1,000,000 links to
 * make the alias page no faster (1.09 ms against 0.95 ms: both read the same hundred heap rows)
 * and every insert or rename about 150 µs dearer. Migration 0013 gave it
 * the suffix table all the same, once the GIN index's pending list was seen to make every alias
 * search several milliseconds dearer between vacuums.
 */
export function searchBacklog(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'sqlite') await upSqlite(db)
    },
  }
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  for (const name of ['links_search_insert', 'links_search_delete', 'links_search_update']) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(name)}`.execute(db)
  }
  await sql`DROP TABLE IF EXISTS links_search`.execute(db)
  await sql`CREATE VIRTUAL TABLE links_search USING fts5(url, title,
    content='', contentless_delete=1, tokenize='trigram')`.execute(db)
  // Merging is done by the indexer, a bounded amount per batch, never at a write's commit.
  await sql`INSERT INTO links_search (links_search, rank) VALUES ('automerge', 0)`.execute(db)
  await sql`CREATE TABLE links_search_pending (
    link_id INTEGER PRIMARY KEY, indexed_alias TEXT)`.execute(db)
  await sql`CREATE TABLE links_search_suffixes (
    suffix TEXT NOT NULL, link_id INTEGER NOT NULL, PRIMARY KEY (suffix, link_id)) WITHOUT ROWID`.execute(
    db,
  )
  await sql`CREATE TRIGGER links_search_insert AFTER INSERT ON links BEGIN
    INSERT OR IGNORE INTO links_search_pending (link_id, indexed_alias) VALUES (new.id, NULL);
  END`.execute(db)
  await sql`CREATE TRIGGER links_search_delete AFTER DELETE ON links BEGIN
    INSERT OR IGNORE INTO links_search_pending (link_id, indexed_alias) VALUES (old.id, old.alias);
  END`.execute(db)
  await sql`CREATE TRIGGER links_search_update AFTER UPDATE OF alias, url, title ON links BEGIN
    INSERT OR IGNORE INTO links_search_pending (link_id, indexed_alias) VALUES (old.id, old.alias);
  END`.execute(db)
  // Rebuilt from the links; the suffixes are sorted first, so the B-tree is filled in key order.
  await sql`INSERT INTO links_search (rowid, url, title) SELECT id, url, title FROM links`.execute(
    db,
  )
  // One segment (2–4 s at a million links): the batches' small merges then start from a compact
  // index instead of the many segments a bulk load leaves on each level.
  await sql`INSERT INTO links_search (links_search) VALUES ('optimize')`.execute(db)
  await sql`INSERT INTO links_search_suffixes (suffix, link_id)
    WITH RECURSIVE positions(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM positions
      WHERE n < (SELECT max(length(alias)) FROM links))
    SELECT lower(substr(links.alias, positions.n)) AS suffix, links.id
    FROM links JOIN positions ON positions.n <= length(links.alias)
    ORDER BY suffix, links.id`.execute(db)
}
