/**
 * The click store on SQLite: the same writes as the query-builder store, with prepared
 * statements in one IMMEDIATE transaction (it takes the write lock at once, so it waits for
 * other writers instead of failing half-way).
 */
import type SQLite from 'better-sqlite3'
import { visitorIncrements } from './aggregate.js'
import { CLICK_ROW_COLUMNS } from './columns.js'
import type { ClickRow } from './event.js'
import type { ClickBatch, ClickStore } from './store.js'

/** Rows a multi-row INSERT takes (16 parameters each, well under SQLite's limit). */
const ROWS_PER_INSERT = 64

function values(row: ClickRow): (string | number | null)[] {
  return CLICK_ROW_COLUMNS.map((column) => row[column])
}

export class SqliteClickStore implements ClickStore {
  private readonly run: (batch: ClickBatch) => void

  constructor(db: SQLite.Database) {
    const exists = db.prepare('SELECT 1 FROM links WHERE id = ?').pluck()
    const insertClicks = (n: number) =>
      db.prepare(
        `INSERT INTO clicks (${CLICK_ROW_COLUMNS.join(', ')}) VALUES ` +
          Array.from({ length: n }, () => `(${CLICK_ROW_COLUMNS.map(() => '?').join(', ')})`).join(
            ', ',
          ),
      )
    const insertOne = insertClicks(1)
    const insertMany = insertClicks(ROWS_PER_INSERT)
    const insertVisitor = db.prepare(
      'INSERT INTO click_visitors (link_id, day, visitor) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    )
    const upsertStat = db.prepare(
      'INSERT INTO click_stats (link_id, dimension, day, value, clicks) VALUES (?, ?, ?, ?, ?) ' +
        'ON CONFLICT (link_id, dimension, day, value) DO UPDATE SET clicks = clicks + excluded.clicks',
    )
    const addClicks = db.prepare('UPDATE links SET clicks = clicks + ? WHERE id = ?')
    const setRotation = db.prepare('UPDATE links SET last_rotation = ? WHERE id = ?')
    const insertDelivery = db.prepare(
      'INSERT INTO webhook_outbox (webhook_id, message_id, type, payload, status, attempts, next_attempt_at, lease_until, last_attempt_at, last_status_code, last_duration_ms, last_error, created_at) ' +
        'VALUES (@webhook_id, @message_id, @type, @payload, @status, @attempts, @next_attempt_at, @lease_until, @last_attempt_at, @last_status_code, @last_duration_ms, @last_error, @created_at)',
    )

    const insertStream = db.prepare('INSERT INTO click_stream (link_id, event) VALUES (?, ?)')

    this.run = db.transaction((batch: ClickBatch) => {
      const alive = new Map<number, boolean>()
      const isAlive = (id: number) => {
        let known = alive.get(id)
        if (known === undefined) alive.set(id, (known = exists.get(id) !== undefined))
        return known
      }
      const rows = batch.rows.filter((row) => isAlive(row.link_id))
      const full = rows.length - (rows.length % ROWS_PER_INSERT)
      for (let i = 0; i < full; i += ROWS_PER_INSERT) {
        insertMany.run(rows.slice(i, i + ROWS_PER_INSERT).flatMap(values))
      }
      for (let i = full; i < rows.length; i++) insertOne.run(values(rows[i]!))
      const fresh: { link_id: number; day: string }[] = []
      for (const v of batch.aggregate.visitors) {
        if (isAlive(v.link_id) && insertVisitor.run(v.link_id, v.day, v.visitor).changes === 1)
          fresh.push(v)
      }
      for (const s of [...batch.aggregate.stats, ...visitorIncrements(fresh)]) {
        if (isAlive(s.link_id)) upsertStat.run(s.link_id, s.dimension, s.day, s.value, s.clicks)
      }
      for (const [linkId, n] of batch.aggregate.linkClicks)
        if (isAlive(linkId)) addClicks.run(n, linkId)
      for (const [linkId, position] of batch.rotations) setRotation.run(position, linkId)
      for (const delivery of batch.deliveries) insertDelivery.run(delivery)
      for (const e of batch.stream ?? [])
        if (isAlive(e.link_id)) insertStream.run(e.link_id, e.event)
    }).immediate
  }

  async write(batch: ClickBatch): Promise<void> {
    this.run(batch)
  }
}
