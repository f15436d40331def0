/**
 * Webhooks: a user's endpoints, the events each hears, its secret, and its deliveries. A URL
 * that names a private, loopback or link-local address (or `localhost`) is refused unless
 * WEBHOOK_ALLOWED_HOSTS allows it; a host name resolving there is refused at delivery.
 */
import type { Page, PageRequest } from '../db/paging.js'
import type { DeliveryStatus, WebhookRow } from '../db/types.js'
import { namesForbiddenAddress, type AddressPolicy } from '../outbound/address-policy.js'
import { FieldErrors, NotFoundError } from '../shared/errors.js'
import type { WebhookOutbox } from './outbox.js'
import type { WebhookInput } from './schema.js'
import { newWebhookSecret } from './signing.js'
import type { LoggedDelivery, SqlWebhookStore, WebhookFields } from './store.js'

export const FORBIDDEN_URL = 'The url must not point to a private, loopback or link-local address.'

export class WebhookService {
  constructor(
    private readonly store: SqlWebhookStore,
    private readonly outbox: WebhookOutbox,
    private readonly policy: AddressPolicy,
    private readonly now: () => number = Date.now,
    /** Told when a delivery is queued outside an event (tests, re-sends). */
    private readonly queued: () => void = () => {},
  ) {}

  list(userId: number, search: string | undefined, page: PageRequest): Promise<Page<WebhookRow>> {
    return this.store.list(userId, search, page)
  }

  async get(userId: number, id: number): Promise<WebhookRow> {
    const hook = await this.store.find(userId, id)
    if (!hook) throw new NotFoundError()
    return hook
  }

  async create(
    userId: number,
    input: WebhookInput,
    errors = new FieldErrors(),
  ): Promise<WebhookRow> {
    for (const field of ['url', 'events'] as const) {
      if (input[field] === undefined && !errors.has(field))
        errors.add(field, `The ${field} field is required.`)
    }
    const fields = this.fields(input, errors)
    errors.throwIfAny()
    return this.store.create(
      userId,
      { active: 1, ...fields } as WebhookFields,
      newWebhookSecret(),
      this.now(),
    )
  }

  async update(
    userId: number,
    id: number,
    input: WebhookInput,
    errors = new FieldErrors(),
  ): Promise<WebhookRow> {
    const hook = await this.get(userId, id)
    const fields = this.fields(input, errors)
    errors.throwIfAny()
    return this.store.update(hook.id, fields, this.now())
  }

  async delete(userId: number, id: number): Promise<WebhookRow> {
    const hook = await this.get(userId, id)
    await this.store.delete(hook.id)
    return hook
  }

  /** A new secret; the old one stops signing at once. */
  async rotateSecret(userId: number, id: number): Promise<WebhookRow> {
    const hook = await this.get(userId, id)
    return this.store.update(hook.id, { secret: newWebhookSecret() }, this.now())
  }

  async sendTest(userId: number, id: number): Promise<void> {
    const hook = await this.get(userId, id)
    await this.outbox.test(hook.id, this.now())
    this.queued()
  }

  async deliveries(
    userId: number,
    id: number,
    status: DeliveryStatus | undefined,
    page: PageRequest,
  ): Promise<Page<LoggedDelivery>> {
    const hook = await this.get(userId, id)
    const found = await this.store.deliveries(hook.id, status, page)
    return { rows: await this.store.withLogs(found.rows), total: found.total }
  }

  /** Sends a delivery again (a failed one, typically), with a fresh round of attempts. */
  async resend(userId: number, id: number, deliveryId: number): Promise<LoggedDelivery> {
    const hook = await this.get(userId, id)
    const delivery = await this.store.findDelivery(hook.id, deliveryId)
    if (!delivery) throw new NotFoundError()
    const requeued = await this.store.requeue(delivery.id, this.now())
    this.queued()
    const [logged] = await this.store.withLogs([requeued])
    return logged!
  }

  private fields(input: WebhookInput, errors: FieldErrors): Partial<WebhookFields> {
    const fields: Partial<WebhookFields> = {}
    if (input.url !== undefined && !errors.has('url')) {
      if (namesForbiddenAddress(new URL(input.url), this.policy)) errors.add('url', FORBIDDEN_URL)
      fields.url = input.url
    }
    if (input.events !== undefined && !errors.has('events')) {
      const events = [...new Set(input.events)]
      fields.events = events.includes('*') ? ['*'] : events
    }
    if (input.active !== undefined) fields.active = input.active
    return fields
  }
}
