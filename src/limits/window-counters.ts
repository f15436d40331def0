/**
 * Counts hits per key in fixed windows (the first hit of a key opens its window). The one
 * counting rule behind every limit: password and lookup attempts, and the API rate limit. In
 * memory here; the cluster primary holds one of these for all the workers of a machine, and
 * Redis plays the same part across machines.
 */
export interface WindowCount {
  /** Hits in the current window, this one included for `incr`. */
  current: number
  /** Milliseconds until the window ends (0 when no window is open). */
  ttl: number
}

/** Where a limit is counted: this process, the cluster primary, or Redis. */
export interface Counters {
  incr(key: string, windowMs: number): WindowCount | Promise<WindowCount>
  peek(key: string, windowMs: number): WindowCount | Promise<WindowCount>
  /**
   * Takes one hit back from the key's open window (an attempt counted before it was checked,
   * which turned out right); never below zero, nothing when no window is open.
   */
  release(key: string, windowMs: number): WindowCount | Promise<WindowCount>
}

const MAX_KEYS = 100_000

export class MemoryCounters implements Counters {
  private readonly windows = new Map<string, { count: number; resetAt: number }>()

  constructor(private readonly now: () => number = Date.now) {}

  incr(key: string, windowMs: number): WindowCount {
    const now = this.now()
    const window = this.current(key, now)
    if (window) {
      window.count++
      return { current: window.count, ttl: window.resetAt - now }
    }
    this.windows.set(key, { count: 1, resetAt: now + windowMs })
    if (this.windows.size > MAX_KEYS) this.sweep(now)
    return { current: 1, ttl: windowMs }
  }

  peek(key: string): WindowCount {
    const now = this.now()
    const window = this.current(key, now)
    return window ? { current: window.count, ttl: window.resetAt - now } : { current: 0, ttl: 0 }
  }

  release(key: string): WindowCount {
    const now = this.now()
    const window = this.current(key, now)
    if (!window) return { current: 0, ttl: 0 }
    if (window.count > 0) window.count--
    return { current: window.count, ttl: window.resetAt - now }
  }

  private current(key: string, now: number) {
    const window = this.windows.get(key)
    if (window && window.resetAt <= now) {
      this.windows.delete(key)
      return undefined
    }
    return window
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key)
  }
}
