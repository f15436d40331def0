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

export interface RotationSource {
  /** Positions changed since the last call, to be persisted (and forgotten). */
  drainChanged(): Map<number, number>
}

export class ClickRecorder {
  private pending: ClickColumns = emptyColumns()
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly channel: ClickChannel,
    private readonly rotations: RotationSource,
  ) {}

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
