/**
 * The oldest pending webhook delivery, read on every scrape of /metrics: its creation time,
 * read through the index of migration 0024 on both engines (SQLite, and PostgreSQL when
 * reachable), however many deliveries are done.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../src/db/connect.js'
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.js'
import {
  freshPostgres,
  freshSqlite,
  postgresCheck,
  type TestDatabase,
} from '../support/databases.js'

async function outbox(db: Db, rows: { status: string; createdAt: number }[]): Promise<void> {
  await sql`INSERT INTO users (name, email, timezone, created_at, updated_at)
    VALUES ('a', 'a@example.com', 'UTC', 0, 0)`.execute(db.kysely)
  await sql`INSERT INTO webhooks (user_id, url, events, active, secret, created_at, updated_at)
    VALUES (1, 'https://example.com/hook', '["*"]', 1, 'whsec_x', 0, 0)`.execute(db.kysely)
  for (const [i, row] of rows.entries()) {
    await sql`INSERT INTO webhook_outbox
      (webhook_id, message_id, type, payload, status, attempts, next_attempt_at, created_at)
      VALUES (1, ${`msg_${i}`}, 'link.created', '{}', ${row.status}, 0, 0, ${row.createdAt})`.execute(
      db.kysely,
    )
  }
}

const ROWS = [
  { status: 'delivered', createdAt: 1_000 },
  { status: 'failed', createdAt: 2_000 },
  { status: 'pending', createdAt: 5_000 },
  { status: 'pending', createdAt: 3_000 },
  { status: 'delivered', createdAt: 4_000 },
]

async function check(open: () => Promise<TestDatabase>, plan: (db: Db) => Promise<string>) {
  const { db, drop } = await open()
  try {
    const dispatcher = new WebhookDispatcher(db)
    expect(await dispatcher.oldestPendingAt()).toBeNull()
    await outbox(db, ROWS)
    expect(await dispatcher.oldestPendingAt()).toBe(3_000)
    expect(await plan(db)).toContain('webhook_outbox_pending_age')
  } finally {
    await drop()
  }
}

const QUERY = "SELECT min(created_at) FROM webhook_outbox WHERE status = 'pending'"

const postgres = await postgresCheck()

describe('the oldest pending webhook delivery', () => {
  it('on SQLite: read from the index', async () => {
    await check(freshSqlite, async (db) =>
      db
        .sqlite!.prepare(`EXPLAIN QUERY PLAN ${QUERY}`)
        .all()
        .map((row) => (row as { detail: string }).detail)
        .join('\n'),
    )
  })

  it.skipIf(!postgres.ok)('on PostgreSQL: read from the index', async () => {
    await check(
      () => freshPostgres('pending_age'),
      async (db) => {
        // A small table is read whole unless sequential scans are off for the plan.
        await sql`SET enable_seqscan = off`.execute(db.kysely)
        const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${sql.raw(QUERY)}`.execute(
          db.kysely,
        )
        return rows.map((row) => row['QUERY PLAN']).join('\n')
      },
    )
  })
})
