import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/**
 * PostgreSQL's alias search reads a suffix table, as SQLite's has since migration 0011.
 *
 * pg_trgm's GIN index on `lower(alias)` reads whole posting lists: for a term of digits in a
 * million `b…` aliases, every trigram of `b5678` is in thousands of aliases, and the list page
 * took 8.4 ms and its count 5.5 ms (EXPLAIN ANALYZE, docs/performance.md). Every suffix of
 * every lower-cased alias, in `C` (byte) order, turns "alias contains t" into the range
 * `t <= suffix < t || U+10FFFF`, which reads only the suffixes that start with t: 111 rows
 * for `b5678`.
 *
 * - The suffixes are those of `lower(alias)` (`substr(lower(alias), k)`), the very text that
 *   the search's final check compares (`lower(alias) like '%t%'`, db/sql-helpers.ts): a link
 *   that the check accepts always has a suffix starting with t, whatever `lower` makes of a
 *   non-ASCII letter, so the table only narrows the candidates and never changes the answer.
 * - Triggers keep it, in the write's own transaction, so no code path (API, dashboard, CLI,
 *   import, a restore) can forget to, and a search sees a change the moment it commits. An
 *   insert and a delete are handled once per statement, from the statement's transition table
 *   (one INSERT or DELETE for a whole import batch or a user's links); an alias change per row,
 *   only when the lower-cased alias differs. A delete finds its rows by the primary key from
 *   the old alias: a foreign key with ON DELETE CASCADE would need a second index on `link_id`
 *   and was dearer for one link and for many (docs/performance.md).
 * - The table starts with `links_search_`: internal, never dumped (transfer/tables.ts); a
 *   restore's links reach it through the same triggers, and a dump of an older schema through
 *   the backfill below when the import migrates it forward.
 * - The backfill is one INSERT … SELECT in suffix order, so the primary key is filled in key
 *   order: about 45 s for 1,000,000 links (6.9 million suffixes), measured on the bench data.
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
  await sql`CREATE TABLE links_search_suffixes (
    suffix text COLLATE "C" NOT NULL,
    link_id bigint NOT NULL,
    PRIMARY KEY (suffix, link_id))`.execute(db)
  await sql`INSERT INTO links_search_suffixes (suffix, link_id)
    ${sql.raw(SUFFIXES_OF('links'))}
    ORDER BY suffix, link_id`.execute(db)
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
