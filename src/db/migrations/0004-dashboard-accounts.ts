import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/**
 * Accounts for the dashboard:
 * - users get a password hash (scrypt, `null` until one is set), a role (`admin` or `user`; the
 *   oldest user becomes an admin) and a disabled flag;
 * - `sessions`: server-side sessions of signed-in people, keyed by a SHA-256 of the session id
 *   (the id itself lives only in the browser's cookie), with the session's CSRF secret;
 * - `password_links`: one-time links to set a password, stored as a SHA-256 of the token,
 *   with an expiry and the instant they were used.
 */
export function dashboardAccounts(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').addColumn('password_hash', 'text').execute()
      await db.schema
        .alterTable('users')
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
        .execute()
      await db.schema
        .alterTable('users')
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await sql`UPDATE users SET role = 'admin' WHERE id = (SELECT min(id) FROM users)`.execute(db)

      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('csrf_secret', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('last_seen_at', big, (c) => c.notNull())
        .execute()
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute()

      const tokens =
        dialect === 'postgres'
          ? db.schema
              .createTable('password_links')
              .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
          : db.schema
              .createTable('password_links')
              .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      await tokens
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('expires_at', big, (c) => c.notNull())
        .addColumn('used_at', big)
        .execute()
    },
  }
}
