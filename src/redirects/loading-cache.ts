/**
 * An in-process cache that loads on a miss, shares one load among concurrent misses, keeps
 * misses too (a `null` value), expires entries after a time to live, and drops the oldest
 * entries beyond a size. A hit is a plain Map read: no promise, no allocation. When reloading an
 * expired entry fails (the database is away), the expired value goes on being served.
 */
import type { MaybePromise } from '../shared/maybe-promise.js'

export interface LoadingCacheOptions {
  maxEntries: number
  ttlMs: number
  now?: () => number
}

const STALE_RETRY_MS = 1000

interface Entry<V> {
  value: V
  expiresAt: number
}

export class LoadingCache<V> {
  private readonly entries = new Map<string, Entry<V>>()
  private readonly loading = new Map<string, Promise<V>>()
  private readonly now: () => number

  constructor(
    private readonly load: (key: string) => Promise<V>,
    private readonly options: LoadingCacheOptions,
  ) {
    this.now = options.now ?? Date.now
  }

  /** The cached value (synchronously, on a hit) or a promise of the loaded one. */
  get(key: string): MaybePromise<V> {
    const entry = this.entries.get(key)
    if (entry !== undefined && entry.expiresAt > this.now()) return entry.value
    const pending = this.loading.get(key)
    if (pending) return pending
    const promise = this.load(key).then(
      (value) => {
        // An invalidation during the load removed this promise: its value may be stale.
        if (this.loading.get(key) === promise) {
          this.loading.delete(key)
          this.store(key, value)
        }
        return value
      },
      (error: unknown) => {
        if (this.loading.get(key) === promise) this.loading.delete(key)
        // The source is away: keep serving what was known, and try again in a second.
        const stale = this.entries.get(key)
        if (stale === undefined) throw error
        stale.expiresAt = this.now() + STALE_RETRY_MS
        return stale.value
      },
    )
    this.loading.set(key, promise)
    return promise
  }

  /** The entry as cached, without loading (for callers that must not wait). */
  peek(key: string): V | undefined {
    const entry = this.entries.get(key)
    return entry !== undefined && entry.expiresAt > this.now() ? entry.value : undefined
  }

  invalidate(key: string): void {
    this.entries.delete(key)
    this.loading.delete(key)
  }

  invalidateWhere(test: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (test(key)) this.entries.delete(key)
    for (const key of [...this.loading.keys()]) if (test(key)) this.loading.delete(key)
  }

  clear(): void {
    this.entries.clear()
    this.loading.clear()
  }

  get size(): number {
    return this.entries.size
  }

  private store(key: string, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, { value, expiresAt: this.now() + this.options.ttlMs })
    if (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
  }
}
