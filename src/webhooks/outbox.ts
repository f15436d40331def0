/**
 * The outbox: each event becomes one delivery row per webhook that hears it, written in the
 * transaction of the change (a listener of the event bus), or, for clicks, planned here and
 * written by the click store in the batch's transaction, at most CLICKS_PER_DELIVERY clicks a
 * delivery.
 */
import type { Db } from '../db/connect.js'
import type { NewWebhookDeliveryRow } from '../db/types.js'
import type { ClickRow } from '../clicks/event.js'
import type { ClickData, DomainEvent } from '../events/types.js'
import { isoMicro } from '../shared/time.js'
import { newMessageId } from './signing.js'
import { SqlWebhookStore } from './store.js'

/** Clicks one `click.recorded` delivery carries at most. */
export const CLICKS_PER_DELIVERY = 100

/** The JSON body of a delivery: Standard Webhooks' `{type, timestamp, data}`. */
export function deliveryBody(type: string, at: number, data: unknown): string {
  return JSON.stringify({ type, timestamp: isoMicro(at), data })
}

function delivery(webhookId: number, type: string, at: number, data: unknown) {
  return {
    webhook_id: webhookId,
    message_id: newMessageId(),
    type,
    payload: deliveryBody(type, at, data),
    status: 'pending',
    attempts: 0,
    next_attempt_at: at,
    lease_until: null,
    last_attempt_at: null,
    last_status_code: null,
    last_duration_ms: null,
    last_error: null,
    created_at: at,
  } satisfies NewWebhookDeliveryRow
}

export class WebhookOutbox {
  private readonly store: SqlWebhookStore

  constructor(private readonly db: Db) {
    this.store = new SqlWebhookStore(db)
  }

  /** Events that have deliveries waiting: only those wake the dispatcher once committed. */
  private readonly delivered = new WeakSet<DomainEvent>()

  /** Writes the deliveries of these events (called inside the change's transaction). */
  async record(events: DomainEvent[]): Promise<void> {
    const rows: NewWebhookDeliveryRow[] = []
    for (const event of events) {
      if (event.userId === null) continue
      for (const hook of await this.store.subscribers(event.userId, event.type)) {
        rows.push(delivery(hook.id, event.type, event.at, event.data))
        this.delivered.add(event)
      }
    }
    await this.store.enqueue(rows)
  }

  /** Whether `record` wrote a delivery for this event. */
  hasDeliveries(event: DomainEvent): boolean {
    return this.delivered.has(event)
  }

  /** A test delivery to one webhook. */
  async test(webhookId: number, at: number): Promise<void> {
    await this.store.enqueue([delivery(webhookId, 'webhook.test', at, { webhook_id: webhookId })])
  }

  /**
   * The `click.recorded` deliveries of a batch of clicks, to be written by the click store in
   * the batch's own transaction: only for users with a webhook that hears clicks (one query per
   * batch finds there are none), each delivery carrying up to CLICKS_PER_DELIVERY clicks in the
   * order they happened. Reads only; it runs before the batch's transaction, outside its lock.
   */
  async planClicks(rows: readonly ClickRow[], at: number): Promise<NewWebhookDeliveryRow[]> {
    if (rows.length === 0) return []
    const hooks = await this.db.kysely
      .selectFrom('webhooks')
      .select(['id', 'user_id', 'events'])
      .where('active', '=', 1)
      .orderBy('id')
      .execute()
    const listening = hooks.filter((h) => /"(\*|click\.recorded)"/.test(h.events))
    if (listening.length === 0) return []
    const users = [...new Set(listening.map((h) => h.user_id))]
    const linkIds = [...new Set(rows.map((r) => r.link_id))]
    const owner = new Map<number, number>()
    for (let i = 0; i < linkIds.length; i += 500) {
      const found = await this.db.kysely
        .selectFrom('links')
        .select(['id', 'user_id'])
        .where('id', 'in', linkIds.slice(i, i + 500))
        .where('user_id', 'in', users)
        .execute()
      for (const link of found) owner.set(link.id, link.user_id)
    }
    const byUser = new Map<number, ClickData[]>()
    for (const row of rows) {
      const userId = owner.get(row.link_id)
      if (userId === undefined) continue
      const list = byUser.get(userId) ?? []
      list.push({
        link_id: row.link_id,
        at: isoMicro(row.at)!,
        country: row.country,
        platform: row.platform,
        browser: row.browser,
        device: row.device,
        language: row.language,
        referrer: row.referrer,
      })
      byUser.set(userId, list)
    }
    const out: NewWebhookDeliveryRow[] = []
    for (const hook of listening) {
      const clicks = byUser.get(hook.user_id) ?? []
      for (let i = 0; i < clicks.length; i += CLICKS_PER_DELIVERY) {
        const part = clicks.slice(i, i + CLICKS_PER_DELIVERY)
        out.push(delivery(hook.id, 'click.recorded', at, { clicks: part }))
      }
    }
    return out
  }
}
