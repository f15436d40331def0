/**
 * Sends the outbox: claims the oldest pending delivery of each active webhook with an atomic
 * UPDATE … RETURNING that takes a lease (so across processes and machines each delivery is
 * claimed by one of them at a time, on SQLite and PostgreSQL alike), signs and POSTs it through
 * the guarded outbound client, and records the outcome: delivered, due again later (see
 * schedule.ts), or failed. Only the oldest pending delivery of a webhook is ever claimed, so a
 * webhook receives its events in order. A process that dies holding a lease loses it when the
 * lease runs out, and the delivery is sent again (at least once).
 */
import type { Db } from '../db/connect.js'
import type { WebhookDeliveryRow } from '../db/types.js'
import { PUBLIC_ONLY, type AddressPolicy } from '../outbound/address-policy.js'
import { outboundRequest } from '../outbound/request.js'
import type { Metrics } from '../shared/metrics.js'
import { isoMicro } from '../shared/time.js'
import {
  KEEP_ATTEMPTS,
  KEEP_DELIVERIES_MS,
  RETRY_DELAYS_MS,
  SWITCH_OFF_AFTER_MS,
} from './schedule.js'
import { signature } from './signing.js'

export interface DispatcherOptions {
  policy?: AddressPolicy
  now?: () => number
  /** Delays between attempts; its length + 1 attempts are made in all. */
  retryDelaysMs?: readonly number[]
  switchOffAfterMs?: number
  /** How often the outbox is looked at without being nudged. */
  pollMs?: number
  /** How long a claim holds a delivery (longer than a request may take: timeout + 5 s). */
  leaseMs?: number
  timeoutMs?: number
  /** How many attempts of each webhook the log keeps (KEEP_ATTEMPTS). */
  keepAttempts?: number
  onError?: (error: unknown) => void
  /** Where attempts are counted by outcome. */
  metrics?: Metrics
}

interface Outcome {
  ok: boolean
  statusCode: number | null
  durationMs: number
  error: string | null
}

export class WebhookDispatcher {
  private readonly now: () => number
  private readonly delays: readonly number[]
  private timer: NodeJS.Timeout | null = null
  private pruner: NodeJS.Timeout | null = null
  private running: Promise<number> | null = null
  private again = false
  private stopped = false

  constructor(
    private readonly db: Db,
    private readonly options: DispatcherOptions = {},
  ) {
    this.now = options.now ?? Date.now
    this.delays = options.retryDelaysMs ?? RETRY_DELAYS_MS
  }

  /** Polls the outbox until stopped; forgets old finished deliveries every hour. */
  start(): void {
    this.timer = setInterval(() => this.nudge(), this.options.pollMs ?? 1000)
    this.timer.unref()
    this.pruner = setInterval(
      () => void this.prune().catch((error: unknown) => this.options.onError?.(error)),
      3_600_000,
    )
    this.pruner.unref()
    this.nudge()
  }

  /** When the oldest pending delivery was queued (ms), or null when none is pending. */
  async oldestPendingAt(): Promise<number | null> {
    const row = await this.db.kysely
      .selectFrom('webhook_outbox')
      .select((eb) => eb.fn.min('created_at').as('at'))
      .where('status', '=', 'pending')
      .executeTakeFirst()
    return row?.at == null ? null : Number(row.at)
  }

  /** Removes delivered and failed deliveries older than KEEP_DELIVERIES_MS; returns how many. */
  async prune(): Promise<number> {
    const result = await this.db.kysely
      .deleteFrom('webhook_outbox')
      .where('status', '!=', 'pending')
      .where('created_at', '<', this.now() - KEEP_DELIVERIES_MS)
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }

  /** Looks at the outbox now (a local change was committed). */
  nudge(): void {
    if (this.stopped) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = this.runUntilIdle().finally(() => {
      this.running = null
    })
  }

  /** Sends what is due until nothing is; resolves with the number of attempts made. */
  async runUntilIdle(): Promise<number> {
    let total = 0
    for (;;) {
      this.again = false
      let sent = 0
      try {
        sent = await this.runOnce()
      } catch (error) {
        this.options.onError?.(error)
      }
      total += sent
      if ((sent === 0 && !this.again) || this.stopped) return total
    }
  }

  /** One round: claims every webhook's due head delivery and attempts each once. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim()
    await Promise.all(claimed.map((row) => this.attempt(row)))
    return claimed.length
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    if (this.pruner) clearInterval(this.pruner)
    await this.running
  }

  private async claim(): Promise<WebhookDeliveryRow[]> {
    const now = this.now()
    const k = this.db.kysely
    // A read first: on SQLite an UPDATE takes the write lock even when nothing matches.
    const due = await k
      .selectFrom('webhook_outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .limit(1)
      .executeTakeFirst()
    if (!due) return []
    const heads = k
      .selectFrom('webhook_outbox as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select((eb) => eb.fn.min('d.id').as('id'))
      .where('d.status', '=', 'pending')
      .where('w.active', '=', 1)
      .groupBy('d.webhook_id')
    return (
      this.db.kysely
        .updateTable('webhook_outbox')
        .set({
          lease_until: now + (this.options.leaseMs ?? (this.options.timeoutMs ?? 10_000) + 5000),
        })
        .where('id', 'in', heads)
        // Checked again on the row itself, after any concurrent claim of it has committed.
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
        .returningAll()
        .execute()
    )
  }

  /** Adds the attempt to the log and forgets the webhook's attempts beyond the last N. */
  private async logAttempt(row: WebhookDeliveryRow, now: number, outcome: Outcome): Promise<void> {
    const webhookId = row.webhook_id
    await this.db.kysely
      .insertInto('webhook_attempts')
      .values({
        webhook_id: webhookId,
        delivery_id: row.id,
        attempted_at: now,
        status_code: outcome.statusCode,
        duration_ms: outcome.durationMs,
        error: outcome.error,
      })
      .execute()
    // The id of the newest attempt beyond the kept ones (none: nothing is deleted).
    const keep = this.options.keepAttempts ?? KEEP_ATTEMPTS
    await this.db.kysely
      .deleteFrom('webhook_attempts')
      .where('webhook_id', '=', webhookId)
      .where('id', '<=', (eb) =>
        eb
          .selectFrom('webhook_attempts')
          .select('id')
          .where('webhook_id', '=', webhookId)
          .orderBy('id', 'desc')
          .limit(1)
          .offset(keep),
      )
      .execute()
  }

  private async attempt(row: WebhookDeliveryRow): Promise<void> {
    const hook = await this.db.kysely
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', row.webhook_id)
      .executeTakeFirst()
    if (!hook) return
    const outcome = await this.send(hook.url, hook.secret, row)
    const now = this.now()
    const attempts = row.attempts + 1
    const status = outcome.ok ? 'delivered' : attempts > this.delays.length ? 'failed' : 'pending'
    this.options.metrics?.webhookDelivery(status === 'pending' ? 'retried' : status)
    await this.db.transaction(async () => {
      await this.db.kysely
        .updateTable('webhook_outbox')
        .set({
          status,
          attempts,
          next_attempt_at:
            status === 'pending' ? now + this.delays[attempts - 1]! : row.next_attempt_at,
          lease_until: null,
          last_attempt_at: now,
          last_status_code: outcome.statusCode,
          last_duration_ms: outcome.durationMs,
          last_error: outcome.error,
        })
        .where('id', '=', row.id)
        .where('lease_until', '=', row.lease_until)
        .execute()
      await this.logAttempt(row, now, outcome)
      if (outcome.ok) {
        if (hook.failing_since !== null) {
          await this.db.kysely
            .updateTable('webhooks')
            .set({ failing_since: null })
            .where('id', '=', hook.id)
            .execute()
        }
        return
      }
      const since = hook.failing_since ?? now
      const limit = this.options.switchOffAfterMs ?? SWITCH_OFF_AFTER_MS
      const switchOff = now - since >= limit
      await this.db.kysely
        .updateTable('webhooks')
        .set({
          failing_since: since,
          ...(switchOff
            ? {
                active: 0,
                disabled_reason:
                  `Switched off at ${isoMicro(now)}: every delivery attempt since ` +
                  `${isoMicro(since)} failed (last: ${outcome.error}).`,
              }
            : {}),
        })
        .where('id', '=', hook.id)
        .execute()
    })
  }

  private async send(url: string, secret: string, row: WebhookDeliveryRow): Promise<Outcome> {
    const started = performance.now()
    const timestamp = Math.floor(this.now() / 1000)
    const elapsed = () => Math.round(performance.now() - started)
    try {
      const answer = await outboundRequest(url, {
        method: 'POST',
        policy: this.options.policy ?? PUBLIC_ONLY,
        timeoutMs: this.options.timeoutMs ?? 10_000,
        maxBytes: 4096,
        body: row.payload,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'slink-webhooks/1',
          'webhook-id': row.message_id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature(secret, row.message_id, timestamp, row.payload),
        },
      })
      const ok = answer.status >= 200 && answer.status < 300
      return {
        ok,
        statusCode: answer.status,
        durationMs: elapsed(),
        error: ok ? null : `HTTP ${answer.status}`,
      }
    } catch (error) {
      return {
        ok: false,
        statusCode: null,
        durationMs: elapsed(),
        error: error instanceof Error ? error.message : String(error),
      }
    }
  }
}
