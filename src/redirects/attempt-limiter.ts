/**
 * Counts attempts per key in fixed one-minute windows: password guesses per visitor and link,
 * and lookups of unknown aliases per visitor. In memory for one process; the same interface is
 * served from Redis when several processes share the work.
 */
export interface AttemptLimiter {
  /** Seconds until the key may try again, or 0 when it may try now. */
  blockedFor(key: string): Promise<number>
  /** Records one attempt. */
  hit(key: string): Promise<void>
}

export class MemoryAttemptLimiter implements AttemptLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>()

  constructor(
    private readonly max: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async blockedFor(key: string): Promise<number> {
    const window = this.current(key)
    if (!window || window.count < this.max) return 0
    return Math.max(1, Math.ceil((window.resetAt - this.now()) / 1000))
  }

  async hit(key: string): Promise<void> {
    const window = this.current(key)
    if (window) window.count++
    else this.windows.set(key, { count: 1, resetAt: this.now() + this.windowMs })
    if (this.windows.size > 100_000) this.sweep()
  }

  private current(key: string) {
    const window = this.windows.get(key)
    if (window && window.resetAt <= this.now()) {
      this.windows.delete(key)
      return undefined
    }
    return window
  }

  private sweep(): void {
    const now = this.now()
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key)
  }
}
