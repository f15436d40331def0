/** Webhooks and their deliveries (the outbox), over the query builder on both engines. */
import type { Db } from '../db/connect.js'
import { fetchPage, type Page, type PageRequest } from '../db/paging.js'
import { prepared } from '../db/prepared.js'
import { containsInsensitive, everyColumn } from '../db/sql-helpers.js'
import type {
  DeliveryStatus,
  NewWebhookDeliveryRow,
  WebhookAttemptRow,
  WebhookDeliveryRow,
  WebhookRow,
} from '../db/types.js'

/** A delivery with the attempts the log still holds, oldest first. */
export interface LoggedDelivery {
  delivery: WebhookDeliveryRow
  log: WebhookAttemptRow[]
}

export interface WebhookFields {
  url: string
  events: string[]
  active: number
}

/** The webhooks that hear an event: active, owned by its user, subscribed to its type or `*`. */
export function subscribes(events: string, type: string): boolean {
  const list = JSON.parse(events) as string[]
  return list.includes('*') || list.includes(type)
}

/** Every column of a webhook, by name (see activeOf). */
const WEBHOOK_COLUMNS = everyColumn<WebhookRow>()([
  'id',
  'user_id',
  'url',
  'events',
  'active',
  'secret',
  'failing_since',
  'disabled_reason',
  'created_at',
  'updated_at',
])

export class SqlWebhookStore {
  constructor(private readonly db: Db) {}

  list(userId: number, search: string | undefined, page: PageRequest): Promise<Page<WebhookRow>> {
    let base = this.db.kysely.selectFrom('webhooks').where('user_id', '=', userId)
    if (search) base = base.where(containsInsensitive('url', search, this.db.dialect))
    return fetchPage(base, (qb) => qb.selectAll(), 'id', 'id', page)
  }

  find(userId: number, id: number): Promise<WebhookRow | undefined> {
    return this.db.kysely
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst()
  }

  create(userId: number, fields: WebhookFields, secret: string, now: number): Promise<WebhookRow> {
    return this.db.kysely
      .insertInto('webhooks')
      .values({
        user_id: userId,
        url: fields.url,
        events: JSON.stringify(fields.events),
        active: fields.active,
        secret,
        failing_since: null,
        disabled_reason: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  update(
    id: number,
    fields: Partial<WebhookFields> & { secret?: string },
    now: number,
  ): Promise<WebhookRow> {
    const { events, ...rest } = fields
    return this.db.kysely
      .updateTable('webhooks')
      .set({
        ...rest,
        ...(events !== undefined ? { events: JSON.stringify(events) } : {}),
        // Switched on again by its owner: the failure history starts anew.
        ...(fields.active === 1 ? { failing_since: null, disabled_reason: null } : {}),
        updated_at: now,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  async delete(id: number): Promise<void> {
    await this.db.kysely.deleteFrom('webhooks').where('id', '=', id).execute()
  }

  /**
   * A user's active webhooks: asked in every change's transaction (prepared, db/prepared.ts; its
   * columns by name, not `*`, so that PostgreSQL names it in the transaction too,
   * db/statement-names.ts).
   */
  private readonly activeOf = prepared(
    () => this.db,
    1,
    (userId: number) =>
      this.db.kysely
        .selectFrom('webhooks')
        .select(WEBHOOK_COLUMNS)
        .where('user_id', '=', userId)
        .where('active', '=', 1)
        .orderBy('id'),
  )

  /** The active webhooks of a user that hear `type`. */
  async subscribers(userId: number, type: string): Promise<WebhookRow[]> {
    return (await this.activeOf(userId)).filter((row) => subscribes(row.events, type))
  }

  async enqueue(rows: NewWebhookDeliveryRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 200) {
      await this.db.kysely
        .insertInto('webhook_outbox')
        .values(rows.slice(i, i + 200))
        .execute()
    }
  }

  deliveries(
    webhookId: number,
    status: DeliveryStatus | undefined,
    page: PageRequest,
  ): Promise<Page<WebhookDeliveryRow>> {
    let base = this.db.kysely.selectFrom('webhook_outbox').where('webhook_id', '=', webhookId)
    if (status) base = base.where('status', '=', status)
    return fetchPage(base, (qb) => qb.selectAll(), 'id', 'id', page)
  }

  /** The logged attempts of these deliveries, oldest first. */
  async attemptsOf(deliveryIds: number[]): Promise<Map<number, WebhookAttemptRow[]>> {
    const out = new Map<number, WebhookAttemptRow[]>(deliveryIds.map((id) => [id, []]))
    if (deliveryIds.length === 0) return out
    const rows = await this.db.kysely
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('id')
      .execute()
    for (const row of rows) out.get(row.delivery_id)?.push(row)
    return out
  }

  async withLogs(deliveries: WebhookDeliveryRow[]): Promise<LoggedDelivery[]> {
    const logs = await this.attemptsOf(deliveries.map((d) => d.id))
    return deliveries.map((delivery) => ({ delivery, log: logs.get(delivery.id) ?? [] }))
  }

  findDelivery(webhookId: number, id: number): Promise<WebhookDeliveryRow | undefined> {
    return this.db.kysely
      .selectFrom('webhook_outbox')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .where('id', '=', id)
      .executeTakeFirst()
  }

  /** Puts a delivery back in the queue, due now, with a fresh count of attempts. */
  requeue(id: number, now: number): Promise<WebhookDeliveryRow> {
    return this.db.kysely
      .updateTable('webhook_outbox')
      .set({ status: 'pending', attempts: 0, next_attempt_at: now, lease_until: null })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }
}
