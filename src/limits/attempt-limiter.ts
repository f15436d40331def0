/**
 * Counts attempts per key in fixed windows: password guesses per visitor and link, sign-ins,
 * and lookups of unknown aliases per visitor. An attempt is counted before it is checked (one
 * atomic increment), so attempts sent at once cannot all be checked before the first is
 * counted; one that turns out right is given back, so only failures use up the limit. The
 * counting itself is a `Counters`: in this process, in the cluster primary for all the workers
 * of a machine, or in Redis.
 */
import type { Counters } from './window-counters.js'

export interface AttemptLimiter {
  /**
   * Counts one attempt: 0 when it may now be checked, or the seconds until the key may try
   * again (the attempt is refused unchecked).
   */
  take(key: string): Promise<number>
  /** Gives back an attempt `take` let through that turned out right. */
  giveBack(key: string): Promise<void>
}

export class CountingAttemptLimiter implements AttemptLimiter {
  constructor(
    private readonly counters: Counters,
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  async take(key: string): Promise<number> {
    const { current, ttl } = await this.counters.incr(`${this.name}:${key}`, this.windowMs)
    return current <= this.max ? 0 : Math.max(1, Math.ceil(ttl / 1000))
  }

  async giveBack(key: string): Promise<void> {
    await this.counters.release(`${this.name}:${key}`, this.windowMs)
  }
}
