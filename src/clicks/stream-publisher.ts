/**
 * Publishes the click stream's outbox (`click_stream`) in id order, a batch at a time, and
 * deletes what the stream acknowledged: at least once (a batch published and not yet deleted when
 * a process stops is published again; consumers dedupe by `id`). One process per database
 * publishes at a time, the holder of the `click_stream_lease` row (renewed with every batch, taken
 * over by another process once it runs out), so across workers and machines events go out in id
 * order. While the stream is away, clicks are still stored (their events wait in the outbox) and
 * publishing is retried with a growing pause, and at once when the stream is back.
 */
import { randomUUID } from 'node:crypto'
import type { Db } from '../db/connect.js'
import { withId } from './stream-events.js'
import type { StreamSink } from './stream-sinks.js'

const BATCH = 500
const LEASE_MS = 10_000
/** A pass when nothing nudged: other processes' events, a lease to take over. */
const IDLE_MS = 1000
const MIN_RETRY_MS = 250
const MAX_RETRY_MS = 5000
const LEASE = 'publisher'

export class ClickStreamPublisher {
  private readonly holder = randomUUID()
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null
  private again = false
  private stopped = false
  private retryMs = MIN_RETRY_MS

  constructor(
    private readonly db: Db,
    private readonly sink: StreamSink,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.sink.onBack(() => {
      this.retryMs = MIN_RETRY_MS
      this.nudge()
    })
    this.nudge()
  }

  /** Events were written: publish them soon. */
  nudge(): void {
    if (this.stopped) return
    if (this.running) {
      this.again = true
      return
    }
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.running = this.pass().finally(() => {
      this.running = null
      if (this.stopped) return
      if (this.again) {
        this.again = false
        this.nudge()
      }
    })
  }

  private later(ms: number): void {
    if (this.stopped) return
    this.timer = setTimeout(() => this.nudge(), ms)
    this.timer.unref()
  }

  private async pass(): Promise<void> {
    try {
      while (!this.stopped) {
        if (!(await this.holdLease())) {
          this.later(IDLE_MS)
          return
        }
        const rows = await this.db.kysely
          .selectFrom('click_stream')
          .select(['id', 'event'])
          .orderBy('id')
          .limit(BATCH)
          .execute()
        if (rows.length === 0) {
          this.retryMs = MIN_RETRY_MS
          this.later(IDLE_MS)
          return
        }
        await this.sink.publish(
          rows.map((r) => ({ id: Number(r.id), json: withId(Number(r.id), r.event) })),
        )
        await this.db.kysely
          .deleteFrom('click_stream')
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute()
        this.retryMs = MIN_RETRY_MS
      }
    } catch (error) {
      this.onError(error)
      this.later(this.retryMs)
      this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS)
    }
  }

  /** Takes or renews the lease; false while another process holds it. */
  private async holdLease(): Promise<boolean> {
    const now = Date.now()
    await this.db.kysely
      .insertInto('click_stream_lease')
      .values({ name: LEASE, holder: this.holder, until: 0 })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute()
    const taken = await this.db.kysely
      .updateTable('click_stream_lease')
      .set({ holder: this.holder, until: now + LEASE_MS })
      .where('name', '=', LEASE)
      .where((eb) => eb.or([eb('holder', '=', this.holder), eb('until', '<', now)]))
      .executeTakeFirst()
    return Number(taken.numUpdatedRows) === 1
  }

  /** Stops publishing (what is left waits in the outbox) and hands the lease on at once. */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    await this.running
    await this.db.kysely
      .updateTable('click_stream_lease')
      .set({ until: 0 })
      .where('name', '=', LEASE)
      .where('holder', '=', this.holder)
      .execute()
      .catch(this.onError)
    await this.sink.close()
  }
}
