/** The SQL of SQLite's search indexes (migration 0011), for the indexer. */
import type SQLite from 'better-sqlite3'

/** A link waiting to be indexed, with the alias the suffix table holds for it (if any). */
export interface Pending {
  link_id: number
  indexed_alias: string | null
}

/** What the indexes hold of a link. */
export interface Current {
  alias: string
  url: string
  title: string | null
}

/**
 * The shortest search term an index answers (in characters); a shorter one is compared with
 * every link of the user (links/store.ts), so no index row shorter than this is ever read.
 */
export const INDEXED_TERM_MIN = 3

/**
 * Every lower-cased suffix of an alias at least INDEXED_TERM_MIN characters long: "alias contains
 * t", for a term t of that many characters or more, is "some suffix starts with t" (migration
 * 0016 dropped the shorter ones).
 */
export function aliasSuffixes(alias: string): string[] {
  const chars = [...alias.toLowerCase()]
  const suffixes: string[] = []
  for (let i = 0; i + INDEXED_TERM_MIN <= chars.length; i++) suffixes.push(chars.slice(i).join(''))
  return suffixes
}

// The same as migration 0011's first fill (see there). The FTS5 table is made anew: emptied with
// 'delete-all' instead, the contentless-delete table took three times as long to fill, twenty
// times as long to optimize, and then 150 ms for each batch's merge (measured at a million).
export const REBUILD = `
  DROP TABLE links_search;
  CREATE VIRTUAL TABLE links_search USING fts5(url, title,
    content='', contentless_delete=1, tokenize='trigram');
  INSERT INTO links_search (links_search, rank) VALUES ('automerge', 0);
  INSERT INTO links_search (rowid, url, title) SELECT id, url, title FROM links;
  INSERT INTO links_search (links_search) VALUES ('optimize');
  DELETE FROM links_search_suffixes;
  INSERT INTO links_search_suffixes (suffix, link_id)
    WITH RECURSIVE positions(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM positions
      WHERE n < (SELECT max(length(alias)) FROM links))
    SELECT lower(substr(links.alias, positions.n)) AS suffix, links.id
    FROM links JOIN positions ON positions.n <= length(links.alias) - ${INDEXED_TERM_MIN - 1}
    ORDER BY suffix, links.id;
  DELETE FROM links_search_pending;`

export function prepare(handle: SQLite.Database) {
  return {
    take: handle.prepare(
      'SELECT link_id, indexed_alias FROM links_search_pending ORDER BY link_id LIMIT ?',
    ),
    current: handle.prepare('SELECT alias, url, title FROM links WHERE id = ?'),
    ftsDelete: handle.prepare('DELETE FROM links_search WHERE rowid = ?'),
    ftsInsert: handle.prepare('INSERT INTO links_search (rowid, url, title) VALUES (?, ?, ?)'),
    drop: handle.prepare('DELETE FROM links_search_suffixes WHERE suffix = ? AND link_id = ?'),
    add: handle.prepare(
      'INSERT OR IGNORE INTO links_search_suffixes (suffix, link_id) VALUES (?, ?)',
    ),
    done: handle.prepare('DELETE FROM links_search_pending WHERE link_id = ?'),
    // Positive: merges only where a level has enough segments, and stops after about N pages.
    merge: handle.prepare("INSERT INTO links_search (links_search, rank) VALUES ('merge', ?)"),
  }
}

export type Statements = ReturnType<typeof prepare>
