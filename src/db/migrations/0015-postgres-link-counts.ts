import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/** The table of changes to each user's number of links (internal: see transfer/tables.ts). */
export const LINK_COUNT_DELTAS = 'link_count_deltas'

/** Its shape, for queries (it is not part of the dumped schema in db/types.ts). */
export type LinkCountDeltasTable = {
  link_count_deltas: { user_id: number; delta: number }
}

/**
 * Each user's number of links on PostgreSQL, as SQLite has had since migration 0014, without a
 * row that every create would lock: the triggers only insert rows of changes (+n for n links
 * inserted by a statement, −n for n deleted, −1 and +1 for a link given to another user), which
 * lock nothing that another transaction writes, so the creates of one user still run side by
 * side in the pool. The number is the sum of the user's rows (`links/store.ts`, which folds a
 * user's rows into one now and then: `foldLinkCounts`).
 *
 * Before, the API's list without a filter counted the user's links for every page: at 1,000,000
 * links, nine pages a second, and ten connections counting at once ran past a client's timeout.
 *
 * - A link deleted with its user (the foreign key's cascade) writes no row: the user's rows go
 *   with the user (the trigger on users), whichever of the two triggers runs first.
 * - An insert and a delete are handled once per statement, from its transition table, as the
 *   alias suffixes are (migration 0013); a change of owner once per row, only when it changes.
 * - The fill is one row per user with links, written while writes to links wait (reads go on).
 * - No row is ever updated, and a fold is one statement (a delete of the user's rows that
 *   inserts their sum): two folds at once, or a fold beside a create, neither lose nor count
 *   twice a change (`test/store/link-counts.test.ts`).
 *
 * SQLite has nothing to do: it writes one transaction at a time and keeps one row per user.
 */
export function postgresLinkCounts(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') await upPostgres(db)
    },
  }
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`LOCK TABLE links IN SHARE ROW EXCLUSIVE MODE`.execute(db)
  await sql`CREATE TABLE link_count_deltas (
    user_id integer NOT NULL,
    delta bigint NOT NULL)`.execute(db)
  await sql`INSERT INTO link_count_deltas (user_id, delta)
    SELECT user_id, count(*) FROM links GROUP BY user_id`.execute(db)
  await sql`CREATE INDEX link_count_deltas_user ON link_count_deltas (user_id)`.execute(db)

  await sql`CREATE FUNCTION slink_link_counts_insert() RETURNS trigger AS $$
    BEGIN
      INSERT INTO link_count_deltas (user_id, delta)
      SELECT user_id, count(*) FROM inserted GROUP BY user_id;
      RETURN NULL;
    END
  $$ LANGUAGE plpgsql`.execute(db)
  // A user deleted by this very command (the cascade to its links) is no longer found.
  await sql`CREATE FUNCTION slink_link_counts_delete() RETURNS trigger AS $$
    BEGIN
      INSERT INTO link_count_deltas (user_id, delta)
      SELECT d.user_id, -count(*) FROM deleted AS d
      WHERE EXISTS (SELECT 1 FROM users AS u WHERE u.id = d.user_id)
      GROUP BY d.user_id;
      RETURN NULL;
    END
  $$ LANGUAGE plpgsql`.execute(db)
  await sql`CREATE FUNCTION slink_link_counts_owner() RETURNS trigger AS $$
    BEGIN
      INSERT INTO link_count_deltas (user_id, delta) VALUES (OLD.user_id, -1), (NEW.user_id, 1);
      RETURN NULL;
    END
  $$ LANGUAGE plpgsql`.execute(db)
  await sql`CREATE FUNCTION slink_link_counts_user_gone() RETURNS trigger AS $$
    BEGIN
      DELETE FROM link_count_deltas WHERE user_id = OLD.id;
      RETURN NULL;
    END
  $$ LANGUAGE plpgsql`.execute(db)

  await sql`CREATE TRIGGER links_link_counts_insert AFTER INSERT ON links
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION slink_link_counts_insert()`.execute(db)
  await sql`CREATE TRIGGER links_link_counts_delete AFTER DELETE ON links
    REFERENCING OLD TABLE AS deleted
    FOR EACH STATEMENT EXECUTE FUNCTION slink_link_counts_delete()`.execute(db)
  await sql`CREATE TRIGGER links_link_counts_owner AFTER UPDATE OF user_id ON links
    FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id)
    EXECUTE FUNCTION slink_link_counts_owner()`.execute(db)
  await sql`CREATE TRIGGER users_link_counts_gone AFTER DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION slink_link_counts_user_gone()`.execute(db)
}
