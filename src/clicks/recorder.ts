/**
 * Takes clicks from the redirect after it has answered, and hands them on to the writer in
 * small batches: every HANDOVER_MS, or at once when HANDOVER_SIZE are pending. Handing over
 * often keeps recorded clicks short-lived in memory (cheap to collect); the writer gathers them
 * into larger transactions. `close()` hands over everything and waits until it is written.
 */
import type { ClickChannel } from './channel.js'
import { append, emptyColumns, type ClickColumns } from './columns.js'
import type { ClickEvent } from './event.js'

export const HANDOVER_MS = 20
const HANDOVER_SIZE = 1000
/** Clicks handed over and not yet stored, at most (CLICK_BACKLOG): about 40 MB of them. */
export const DEFAULT_MAX_BACKLOG = 100_000

export interface RotationSource {
  /** Positions changed since the last call, to be persisted (and forgotten). */
  drainChanged(): Map<number, number>
}

/**
 * Overload: when the writer falls behind by `maxBacklog` clicks (the database is slower than the
 * traffic, or away), `full` turns true and the redirect path waits for `room()` before answering
 * a counted visit. Memory stays bounded and no click is dropped; answers slow down to the pace
 * the writer stores clicks at, and the log says when that starts and ends.
 */
export class ClickRecorder {
  private pending: ClickColumns = emptyColumns()
  private timer: NodeJS.Timeout | null = null
  private waiters: (() => void)[] = []
  private overloaded = false

  constructor(
    private readonly channel: ClickChannel,
    private readonly rotations: RotationSource,
    private readonly maxBacklog = DEFAULT_MAX_BACKLOG,
    private readonly onOverload: (overloaded: boolean, backlog: number) => void = () => {},
  ) {
    channel.onProgress(() => this.release())
  }

  /** Clicks recorded and not yet stored. */
  get backlog(): number {
    return this.channel.backlog + this.pending.linkIds.length
  }

  /** Clicks the writer has finished with (see ClickChannel.written). */
  get written(): number {
    return this.channel.written
  }

  /** Counted visits waiting in `room()`. */
  get waiting(): number {
    return this.waiters.length
  }

  /** Whether a counted visit must wait for `room()` before it is answered. */
  get full(): boolean {
    if (this.backlog < this.maxBacklog) return false
    if (!this.overloaded) {
      this.overloaded = true
      this.onOverload(true, this.backlog)
    }
    return true
  }

  /** Resolves once the backlog is below its bound again. */
  room(): Promise<void> {
    // What is pending here counts too: hand it over now rather than in HANDOVER_MS.
    this.handOver()
    if (!this.full) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  private release(): void {
    if (this.waiters.length === 0 && !this.overloaded) return
    // Let waiters through a slice at a time, so the backlog stays near its bound.
    let free = this.maxBacklog - this.backlog
    while (free > 0 && this.waiters.length > 0) {
      this.waiters.shift()!()
      free--
    }
    if (this.overloaded && this.waiters.length === 0 && this.backlog < this.maxBacklog) {
      this.overloaded = false
      this.onOverload(false, this.backlog)
    }
  }

  record(click: ClickEvent): void {
    append(this.pending, click)
    if (this.pending.linkIds.length >= HANDOVER_SIZE) this.handOver()
    else this.timer ??= setTimeout(() => this.handOver(), HANDOVER_MS)
  }

  /** Hands over what is pending and resolves once everything is written (tests, shutdown). */
  async flush(): Promise<void> {
    this.handOver()
    await this.channel.settled()
  }

  async close(): Promise<void> {
    this.handOver()
    await this.channel.close()
  }

  private handOver(): void {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
    }
    const rotations = this.rotations.drainChanged()
    if (this.pending.linkIds.length === 0 && rotations.size === 0) return
    this.pending.rotations = [...rotations]
    this.channel.send(this.pending)
    this.pending = emptyColumns()
  }
}
