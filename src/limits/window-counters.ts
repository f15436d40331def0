/**
 * Counts hits per key in fixed windows (the first hit of a key opens its window). The one
 * counting rule behind every limit: password and lookup attempts, sign-ins, QR images and the
 * API rate limit. In memory here; the cluster primary holds one of these for all the workers of
 * a machine, and Redis plays the same part across machines.
 */
import { LRUCache } from 'lru-cache'

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

/** The open windows one process keeps at most. */
export const MAX_KEYS = 100_000

interface Window {
  count: number
  resetAt: number
}

/**
 * The windows live in an LRU cache with a time to live: a window past its end is gone when its
 * key is next asked for, and once `maxKeys` windows are open a new key takes the place of the
 * one used least recently, in constant time. Every key (a random bogus API key is one) costs
 * the same small work, however many are open.
 */
export class MemoryCounters implements Counters {
  private readonly windows: LRUCache<string, Window>

  constructor(
    private readonly now: () => number = Date.now,
    maxKeys = MAX_KEYS,
  ) {
    // ttlResolution 0: every check reads the clock given here, and no timer is set.
    this.windows = new LRUCache({ max: maxKeys, ttlResolution: 0, perf: { now } })
  }

  /** The windows open now (at most `maxKeys`). */
  get size(): number {
    return this.windows.size
  }

  incr(key: string, windowMs: number): WindowCount {
    const now = this.now()
    const window = this.open(key, now, this.windows.get(key))
    if (window) {
      window.count++
      return { current: window.count, ttl: window.resetAt - now }
    }
    this.windows.set(key, { count: 1, resetAt: now + windowMs }, { ttl: windowMs })
    return { current: 1, ttl: windowMs }
  }

  peek(key: string): WindowCount {
    const now = this.now()
    const window = this.open(key, now, this.windows.peek(key))
    return window ? { current: window.count, ttl: window.resetAt - now } : { current: 0, ttl: 0 }
  }

  release(key: string): WindowCount {
    const now = this.now()
    const window = this.open(key, now, this.windows.peek(key))
    if (!window) return { current: 0, ttl: 0 }
    if (window.count > 0) window.count--
    return { current: window.count, ttl: window.resetAt - now }
  }

  /** The window found for `key`, unless it ends now (the cache keeps it to the millisecond). */
  private open(key: string, now: number, window: Window | undefined): Window | undefined {
    if (window && window.resetAt <= now) {
      this.windows.delete(key)
      return undefined
    }
    return window
  }
}
