/**
 * A limit on costly requests per key (QR images per user): every request is counted first,
 * then refused when its window holds more than `max`. Counted where every other limit is (see
 * window-counters.ts), so the workers of a machine, or machines sharing Redis, share it.
 */
import type { Counters } from './window-counters.js'

export class RequestLimit {
  constructor(
    private readonly counters: Counters,
    private readonly name: string,
    readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one request of `key`: 0 when it may go on, else the seconds until it may. */
  async take(key: string): Promise<number> {
    const { current, ttl } = await this.counters.incr(`${this.name}:${key}`, this.windowMs)
    return current <= this.max ? 0 : Math.max(1, Math.ceil(ttl / 1000))
  }
}
