import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/** The one-row table the triggers count in (internal: never dumped, see transfer/tables.ts). */
export const AUTH_GENERATION = 'auth_generation'

/** Its shape, for queries (it is not part of the dumped schema in db/types.ts). */
export type AuthGenerationTable = {
  auth_generation: { value: number }
}

/**
 * A counter of every change that can stop a key from authenticating: a key revoked, deleted or
 * rewritten, a user disabled or deleted. Triggers keep it, so no code path (API, dashboard,
 * CLI, a restore) can forget to. A process may keep the keys it has checked while the counter
 * has not moved (users/service.ts): it reads one small row, at most every 250 ms, instead of
 * looking the key up, and a revocation takes effect within that time on every process (at once
 * on the process that made it).
 * Recording a key's last use (`last_used_at`) does not count.
 */
export function authGeneration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable(AUTH_GENERATION)
        .addColumn('value', 'bigint', (c) => c.notNull())
        .execute()
      await sql`INSERT INTO auth_generation (value) VALUES (1)`.execute(db)
      const events = [
        ['api_keys_auth_update', 'UPDATE OF revoked_at, prefix, hash, user_id ON api_keys'],
        ['api_keys_auth_delete', 'DELETE ON api_keys'],
        ['users_auth_update', 'UPDATE OF disabled ON users'],
        ['users_auth_delete', 'DELETE ON users'],
      ] as const
      if (dialect === 'sqlite') {
        for (const [name, event] of events) {
          await sql`CREATE TRIGGER ${sql.id(name)} AFTER ${sql.raw(event)} BEGIN
            UPDATE auth_generation SET value = value + 1;
          END`.execute(db)
        }
        return
      }
      await sql`CREATE FUNCTION slink_bump_auth_generation() RETURNS trigger AS $$
        BEGIN
          UPDATE auth_generation SET value = value + 1;
          RETURN NULL;
        END
      $$ LANGUAGE plpgsql`.execute(db)
      for (const [name, event] of events) {
        await sql`CREATE TRIGGER ${sql.id(name)} AFTER ${sql.raw(event)}
          FOR EACH STATEMENT EXECUTE FUNCTION slink_bump_auth_generation()`.execute(db)
      }
    },
  }
}
