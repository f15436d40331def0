/**
 * Gathers handed-over clicks and writes them at most GATHER_MS after the first arrives, or at
 * once when GATHER_SIZE are waiting: a few larger transactions instead of many small ones.
 * Writes happen one at a time, in order. When a write fails the clicks stay with the writer and
 * a retry follows every RETRY_MS until it succeeds.
 */
import { toEvents, type ClickColumns } from './columns.js'
import type { ClickEvent } from './event.js'
import type { ClickWriter } from './writer.js'

export const GATHER_MS = 500
const GATHER_SIZE = 50_000
const RETRY_MS = 1000

export class ClickGatherer {
  private events: ClickEvent[] = []
  private rotations: [number, number][] = []
  private timer: NodeJS.Timeout | null = null
  private chain: Promise<void> = Promise.resolve()
  /** Clicks received so far, and those handed to the writer and not yet settled. */
  private received = 0
  private writing = 0

  constructor(
    private readonly writer: ClickWriter,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Clicks received and no longer held: stored, or dropped by the writer past its limit (see
   * ClickWriter). What the request thread still waits for is what it sent minus this.
   */
  get finished(): number {
    return this.received - this.events.length - this.writing - this.writer.waiting
  }

  add(columns: ClickColumns): void {
    for (const event of toEvents(columns)) {
      this.events.push(event)
      this.received++
    }
    for (const rotation of columns.rotations) this.rotations.push(rotation)
    if (this.events.length >= GATHER_SIZE) void this.writeNow()
    else this.timer ??= setTimeout(() => void this.writeNow(), GATHER_MS)
  }

  /** Writes everything gathered (after any write in progress); resolves when done. */
  writeNow(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
    }
    const batch = { events: this.events, rotations: this.rotations }
    this.events = []
    this.rotations = []
    this.writing += batch.events.length
    this.chain = this.chain.then(() =>
      this.writer
        .write(batch)
        .catch((error: unknown) => {
          this.onError(error)
          this.timer ??= setTimeout(() => void this.writeNow(), RETRY_MS)
        })
        // Written, or kept by the writer for the retry (counted in `waiting`).
        .finally(() => (this.writing -= batch.events.length)),
    )
    return this.chain
  }

  async close(): Promise<void> {
    await this.writeNow()
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    // One more try for anything kept after a failure.
    if (this.writer.waiting > 0) await this.writeNow()
    if (this.timer) clearTimeout(this.timer)
  }
}
