import type { Kysely } from 'kysely'

/**
 * The age of the oldest pending webhook delivery, read on every scrape of /metrics
 * (`min(created_at) WHERE status = 'pending'`), is one step down this index on both engines,
 * however many deliveries the outbox holds.
 */
export function webhookOutboxPendingAge() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('webhook_outbox_pending_age')
        .on('webhook_outbox')
        .columns(['status', 'created_at'])
        .execute()
    },
  }
}
