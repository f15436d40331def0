/**
 * Counts attempts per key in fixed one-minute windows: password guesses per visitor and link,
 * and lookups of unknown aliases per visitor. The counting itself is a `Counters`: in this
 * process, in the cluster primary for all the workers of a machine, or in Redis.
 */
import type { Counters } from './window-counters.js'

export interface AttemptLimiter {
  /** Seconds until the key may try again, or 0 when it may try now. */
  blockedFor(key: string): Promise<number>
  /** Records one attempt. */
  hit(key: string): Promise<void>
}

export class CountingAttemptLimiter implements AttemptLimiter {
  constructor(
    private readonly counters: Counters,
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  async blockedFor(key: string): Promise<number> {
    const { current, ttl } = await this.counters.peek(`${this.name}:${key}`, this.windowMs)
    return current < this.max ? 0 : Math.max(1, Math.ceil(ttl / 1000))
  }

  async hit(key: string): Promise<void> {
    await this.counters.incr(`${this.name}:${key}`, this.windowMs)
  }
}
