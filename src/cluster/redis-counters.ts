/**
 * Limit counters shared by every process through Redis (fixed windows, one key per visitor and
 * purpose). While Redis is away, each process counts for itself in memory instead: limits stay
 * in force, only per process.
 */
import type { Redis } from 'ioredis'
import { MemoryCounters, type Counters, type WindowCount } from '../limits/window-counters.js'

const INCR = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`

const RELEASE = `local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then n = redis.call('DECR', KEYS[1]) end
return {n, redis.call('PTTL', KEYS[1])}`

export class RedisCounters implements Counters {
  private readonly fallback = new MemoryCounters()

  constructor(private readonly redis: Redis) {}

  async incr(key: string, windowMs: number): Promise<WindowCount> {
    try {
      const [n, ttl] = (await this.redis.eval(INCR, 1, `slink:${key}`, String(windowMs))) as [
        number,
        number,
      ]
      return { current: Number(n), ttl: Math.max(0, Number(ttl)) }
    } catch {
      return this.fallback.incr(key, windowMs)
    }
  }

  async release(key: string): Promise<WindowCount> {
    try {
      const [n, ttl] = (await this.redis.eval(RELEASE, 1, `slink:${key}`)) as [number, number]
      return { current: Number(n), ttl: Math.max(0, Number(ttl)) }
    } catch {
      return this.fallback.release(key)
    }
  }

  async peek(key: string): Promise<WindowCount> {
    try {
      const k = `slink:${key}`
      const [count, ttl] = await Promise.all([this.redis.get(k), this.redis.pttl(k)])
      return count === null
        ? { current: 0, ttl: 0 }
        : { current: Number(count), ttl: Math.max(0, ttl) }
    } catch {
      return this.fallback.peek(key)
    }
  }
}
