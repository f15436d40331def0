import type { Kysely } from 'kysely'
import type { Dialect } from '../connect.js'
import { columnsFor } from './columns.js'

/**
 * API keys get what the Account page shows of them:
 * - `name`: chosen when a key is made on the dashboard; keys made before, by `slink key create`
 *   or from INITIAL_API_KEY are named by how they were made (existing ones: `Default`);
 * - `last_used_at`: when the key last authenticated an API request (epoch ms, written at most
 *   once a minute per key; null until then).
 */
export function apiKeyNames(dialect: Dialect) {
  const { big } = columnsFor(dialect)
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('api_keys')
        .addColumn('name', 'text', (c) => c.notNull().defaultTo('Default'))
        .execute()
      await db.schema.alterTable('api_keys').addColumn('last_used_at', big).execute()
      // The Account page lists a user's keys.
      await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute()
    },
  }
}
