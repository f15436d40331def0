import type { CreateTableBuilder, Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/**
 * Webhooks and their outbox. `webhook_outbox` holds one row per event and webhook, written
 * in the same transaction as the change that raised the event; the dispatcher claims the oldest
 * pending row of each webhook (a lease in `lease_until`), sends it and records the outcome of
 * its last attempt on the row itself.
 */
export function webhooks(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer'
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres'
      ? table.addColumn('id', big, (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withId(db.schema.createTable('webhooks'))
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('failing_since', big)
        .addColumn('disabled_reason', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute()
      await db.schema.createIndex('webhooks_user').on('webhooks').column('user_id').execute()

      await withId(db.schema.createTable('webhook_outbox'))
        .addColumn('webhook_id', 'integer', (c) =>
          c.notNull().references('webhooks.id').onDelete('cascade'),
        )
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', big, (c) => c.notNull())
        .addColumn('lease_until', big)
        .addColumn('last_attempt_at', big)
        .addColumn('last_status_code', 'integer')
        .addColumn('last_duration_ms', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('webhook_outbox_queue')
        .on('webhook_outbox')
        .columns(['status', 'webhook_id', 'id'])
        .execute()
      await db.schema
        .createIndex('webhook_outbox_log')
        .on('webhook_outbox')
        .columns(['webhook_id', 'id'])
        .execute()
    },
  }
}
