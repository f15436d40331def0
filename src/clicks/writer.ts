/**
 * Writes batches of clicks: describes each click, aggregates the batch, plans its webhook
 * deliveries and stores it all in one transaction. Clicks that cannot be written yet (the database is away) are kept, and written
 * with the next batch; at most MAX_KEPT wait that way (beyond it the oldest are dropped and
 * counted in `dropped`).
 */
import { aggregate } from './aggregate.js'
import type { ClickDescriber } from './describe.js'
import type { NewClickStreamRow, NewWebhookDeliveryRow } from '../db/types.js'
import { dayOf, type ClickEvent, type ClickRow } from './event.js'
import type { ClickStore } from './store.js'
import type { VisitorHasher } from './visitor-hash.js'

export interface ClickBatchInput {
  events: ClickEvent[]
  /** Rotation positions to persist: `[linkId, position]`. */
  rotations: [number, number][]
}

const MAX_KEPT = 2_000_000

export class ClickWriter {
  private events: ClickEvent[] = []
  private rows: ClickRow[] = []
  private counted: boolean[] = []
  private rotations = new Map<number, number>()
  dropped = 0

  constructor(
    private readonly store: ClickStore,
    private readonly hasher: VisitorHasher,
    private readonly describer: ClickDescriber,
    /**
     * The webhook deliveries of a batch (`click.recorded`), written in the batch's transaction;
     * planned again on a retry, so a batch's events are written once, with its clicks.
     */
    private readonly deliveriesOf: (
      rows: readonly ClickRow[],
    ) => Promise<NewWebhookDeliveryRow[]> = async () => [],
    /** The batch's click-stream events (CLICK_STREAM_URL), written in its transaction too. */
    private readonly streamOf: (
      rows: readonly ClickRow[],
    ) => Promise<NewClickStreamRow[]> = async () => [],
  ) {}

  /** Clicks received and not yet written. */
  get waiting(): number {
    return this.events.length + this.rows.length
  }

  /** Writes the batch with whatever is kept; throws when the store fails, keeping the clicks. */
  async write(batch: ClickBatchInput): Promise<void> {
    for (const event of batch.events) this.events.push(event)
    for (const [linkId, position] of batch.rotations) this.rotations.set(linkId, position)
    this.trim()
    await this.hasher.prepare(new Set(this.events.map((e) => dayOf(e.at))))
    for (const event of this.events) {
      this.rows.push(this.describer.describe(event))
      this.counted.push(event.counted)
    }
    this.events = []
    if (this.rows.length === 0 && this.rotations.size === 0) return
    await this.store.write({
      rows: this.rows,
      aggregate: aggregate(this.rows, this.counted),
      rotations: this.rotations,
      deliveries: await this.deliveriesOf(this.rows),
      stream: await this.streamOf(this.rows),
    })
    this.rows = []
    this.counted = []
    this.rotations = new Map()
  }

  private trim(): void {
    const excess = this.waiting - MAX_KEPT
    if (excess <= 0) return
    this.dropped += excess
    const fromRows = Math.min(excess, this.rows.length)
    this.rows.splice(0, fromRows)
    this.counted.splice(0, fromRows)
    this.events.splice(0, excess - fromRows)
  }
}
