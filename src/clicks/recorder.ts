/**
 * Counts clicks in batches: the redirect hands over a ClickEvent after answering, and a flush
 * at most FLUSH_DELAY_MS later writes everything pending in one transaction. A batch that
 * fails to write is kept and retried with the next one, up to MAX_PENDING events. `close()`
 * writes whatever is pending (graceful shutdown).
 */
import { aggregate } from './aggregate.js'
import { dayOf, type ClickEvent, type ClickRow } from './event.js'
import type { ClickStore } from './store.js'
import type { VisitorHasher } from './visitor-hash.js'

export const FLUSH_DELAY_MS = 200
const MAX_PENDING = 2_000_000

export interface RotationSource {
  /** Positions changed since the last call, to be persisted (and forgotten). */
  drainChanged(): Map<number, number>
}

export class ClickRecorder {
  private pending: ClickEvent[] = []
  private retry: { rows: ClickRow[]; counted: boolean[] } | null = null
  private timer: NodeJS.Timeout | null = null
  private flushing: Promise<void> | null = null
  private closed = false
  dropped = 0

  constructor(
    private readonly store: ClickStore,
    private readonly hasher: VisitorHasher,
    private readonly rotations: RotationSource,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  record(event: ClickEvent): void {
    if (this.pending.length >= MAX_PENDING) {
      this.dropped++
      return
    }
    this.pending.push(event)
    this.schedule()
  }

  /** Something changed that must be persisted even without clicks (rotation positions). */
  touch(): void {
    this.schedule()
  }

  get size(): number {
    return this.pending.length + (this.retry?.rows.length ?? 0)
  }

  /** Writes everything pending now; resolves when it is written (or has failed once). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
    }
    while (this.flushing) await this.flushing
    this.flushing = this.writePending().finally(() => {
      this.flushing = null
    })
    await this.flushing
  }

  async close(): Promise<void> {
    this.closed = true
    await this.flush()
    if (this.size > 0) await this.flush()
  }

  private schedule(): void {
    if (this.timer || this.closed) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.flush().then(() => {
        if (this.size > 0) this.schedule()
      })
    }, FLUSH_DELAY_MS)
  }

  private async writePending(): Promise<void> {
    const events = this.pending
    this.pending = []
    const rows = [...(this.retry?.rows ?? [])]
    const counted = [...(this.retry?.counted ?? [])]
    this.retry = null
    try {
      for (const event of events) {
        rows.push(await this.toRow(event))
        counted.push(event.counted)
      }
    } catch (error) {
      // The salt could not be read (database down): try the raw events again later.
      this.pending = events.concat(this.pending)
      this.retry = rows.length > 0 ? { rows, counted } : null
      this.onError(error)
      return
    }
    const rotations = this.rotations.drainChanged()
    if (rows.length === 0 && rotations.size === 0) return
    try {
      await this.store.write({ rows, aggregate: aggregate(rows, counted), rotations })
    } catch (error) {
      this.retry = { rows, counted }
      this.onError(error)
    }
  }

  private async toRow(event: ClickEvent): Promise<ClickRow> {
    const { visitor } = event
    return {
      link_id: event.linkId,
      at: event.at,
      country: visitor.country,
      platform: visitor.platform,
      browser: visitor.browser,
      device: visitor.device,
      language: visitor.languages[0] ?? null,
      referrer: visitor.referrerHost,
      visitor: await this.hasher.hash(dayOf(event.at), event.linkId, event.ip, event.userAgent),
    }
  }
}
