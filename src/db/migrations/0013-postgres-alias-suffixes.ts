import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/**
 * PostgreSQL's alias search reads a suffix table, as SQLite's has since migration 0011.
 *
 * pg_trgm's GIN index on `lower(alias)` keeps recent writes in a pending list that every search
 * reads whole (up to 4 MB, until a vacuum or the list's size merges it), and its posting lists
 * for a term of digits are long: at 1,000,000 links, after 4,000 links were created and renamed,
 * the page of `search=b5678&search_by=alias` took 5.1 ms and its count 7.0 ms (EXPLAIN ANALYZE;
 * 0.65 and 0.56 ms just after a vacuum). Every suffix of every lower-cased alias, in `C` (byte)
 * order, turns "alias contains t" into the range `t <= suffix < t || U+10FFFF`, which reads only
 * the suffixes that start with t: 111 rows for `b5678`, and the same page then took 0.2 ms
 * (links/store.ts says how the list uses it).
 *
 * - The suffixes are those of `lower(alias)` (`substr(lower(alias), k)`), the very text that
 *   the search's final check compares (`lower(alias) like '%t%'`, db/sql-helpers.ts): a link
 *   that the check accepts always has a suffix starting with t, whatever `lower` makes of a
 *   non-ASCII letter, so the table only narrows the candidates and never changes the answer.
 * - Triggers keep it, in the write's own transaction, so no code path (API, dashboard, CLI,
 *   import, a restore) can forget to, and a search sees a change the moment it commits. An
 *   insert and a delete are handled once per statement, from the statement's transition table:
 *   as cheap as a row trigger for one link (60–110 µs more than no trigger, inside a
 *   transaction, while the key's pages are in memory; about 1 ms more for a rename whose pages
 *   are not), and for 100,000 links in one statement 9.5 s against
 *   10–16 s to insert, 6 s against 16–19 s to delete their user. An alias change is handled
 *   per row (a column list cannot have a transition table), only when the lower-cased alias
 *   differs. A delete finds its rows by the primary key from the old alias: a foreign key with
 *   ON DELETE CASCADE deleted the user's 100,000 links faster (3 s) but needs a second index on
 *   `link_id` (6.9 million more entries at a million links), which made every insert dearer
 *   (the 100,000 in 13–18 s).
 * - The table starts with `links_search_`: internal, never dumped (transfer/tables.ts); a
 *   restore's links reach it through the same insert trigger, and a dump of an older schema
 *   through the fill below when the import migrates it forward.
 * - The fill is one INSERT … SELECT in suffix order, the primary key added afterwards: the whole
 *   migration took 26.7 s on the bench's 1,000,000 links (6.9 million suffixes; table 291 MB,
 *   key 207 MB). Filling it with the key in place took 31 s instead of 28 s, and unsorted 37 s
 *   with a key of 302 MB (one run each, load average about 3). Writes to links wait for the
 *   whole migration (the lock below); reads do not.
 *
 * SQLite has nothing to do: it has had its suffix table since 0011.
 */
export function postgresAliasSuffixes(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') await upPostgres(db)
    },
  }
}

/** Every suffix of a link's lower-cased alias, as rows (`suffix`, `link_id`) of the link `l`. */
const SUFFIXES_OF = (links: string) => `
  SELECT substr(lower(l.alias), k) AS suffix, l.id AS link_id
  FROM ${links} AS l, generate_series(1, length(lower(l.alias))) AS k`

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  // Links written while the table is filled would be missed: writes wait (reads go on) until
  // the triggers are in place and the migration commits.
  await sql`LOCK TABLE links IN SHARE ROW EXCLUSIVE MODE`.execute(db)
  await sql`CREATE TABLE links_search_suffixes (
    suffix text COLLATE "C" NOT NULL,
    link_id bigint NOT NULL)`.execute(db)
  await sql`INSERT INTO links_search_suffixes (suffix, link_id)
    ${sql.raw(SUFFIXES_OF('links'))}
    ORDER BY suffix, link_id`.execute(db)
  await sql`ALTER TABLE links_search_suffixes ADD PRIMARY KEY (suffix, link_id)`.execute(db)
  await sql`ANALYZE links_search_suffixes`.execute(db)

  await sql`CREATE FUNCTION slink_alias_suffixes_insert() RETURNS trigger AS $$
    BEGIN
      INSERT INTO links_search_suffixes (suffix, link_id) ${sql.raw(SUFFIXES_OF('inserted'))};
      RETURN NULL;
    END
  $$ LANGUAGE plpgsql`.execute(db)
  await sql`CREATE FUNCTION slink_alias_suffixes_delete() RETURNS trigger AS $$
    BEGIN
      DELETE FROM links_search_suffixes AS s
      USING (${sql.raw(SUFFIXES_OF('deleted'))}) AS d
      WHERE s.suffix = d.suffix AND s.link_id = d.link_id;
      RETURN NULL;
    END
  $$ LANGUAGE plpgsql`.execute(db)
  await sql`CREATE FUNCTION slink_alias_suffixes_update() RETURNS trigger AS $$
    BEGIN
      DELETE FROM links_search_suffixes AS s
      USING generate_series(1, length(lower(OLD.alias))) AS k
      WHERE s.suffix = substr(lower(OLD.alias), k) AND s.link_id = OLD.id;
      INSERT INTO links_search_suffixes (suffix, link_id)
      SELECT substr(lower(NEW.alias), k), NEW.id
      FROM generate_series(1, length(lower(NEW.alias))) AS k;
      RETURN NULL;
    END
  $$ LANGUAGE plpgsql`.execute(db)

  await sql`CREATE TRIGGER links_alias_suffixes_insert AFTER INSERT ON links
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION slink_alias_suffixes_insert()`.execute(db)
  await sql`CREATE TRIGGER links_alias_suffixes_delete AFTER DELETE ON links
    REFERENCING OLD TABLE AS deleted
    FOR EACH STATEMENT EXECUTE FUNCTION slink_alias_suffixes_delete()`.execute(db)
  await sql`CREATE TRIGGER links_alias_suffixes_update AFTER UPDATE OF alias ON links
    FOR EACH ROW WHEN (lower(OLD.alias) IS DISTINCT FROM lower(NEW.alias))
    EXECUTE FUNCTION slink_alias_suffixes_update()`.execute(db)
}
