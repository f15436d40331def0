import type { Kysely } from 'kysely'
import type { Dialect } from '../connect.js'
import { columnsFor } from './columns.js'

/**
 * The delivery log keeps every attempt, not only a delivery's last: one row per attempt
 * (when, the answer's status, how long it took, what went wrong), written in the attempt's
 * transaction. The dispatcher keeps the last attempts of each webhook and prunes the older
 * ones as it writes; deleting a delivery or a webhook deletes its attempts.
 */
export function webhookAttempts(dialect: Dialect) {
  const { big, withId } = columnsFor(dialect)
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withId(db.schema.createTable('webhook_attempts'))
        .addColumn('webhook_id', 'integer', (c) =>
          c.notNull().references('webhooks.id').onDelete('cascade'),
        )
        .addColumn('delivery_id', 'integer', (c) =>
          c.notNull().references('webhook_outbox.id').onDelete('cascade'),
        )
        .addColumn('attempted_at', big, (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('duration_ms', 'integer')
        .addColumn('error', 'text')
        .execute()
      await db.schema
        .createIndex('webhook_attempts_webhook')
        .on('webhook_attempts')
        .columns(['webhook_id', 'id'])
        .execute()
      await db.schema
        .createIndex('webhook_attempts_delivery')
        .on('webhook_attempts')
        .columns(['delivery_id', 'id'])
        .execute()
    },
  }
}
