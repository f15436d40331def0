/**
 * Attempt limits shared by every process through Redis (fixed one-minute windows, one key per
 * visitor and purpose). While Redis is away, each process counts for itself in memory instead:
 * limits stay in force, only per process.
 */
import type { Redis } from 'ioredis'
import { MemoryAttemptLimiter, type AttemptLimiter } from '../redirects/attempt-limiter.js'

const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`

export class RedisAttemptLimiter implements AttemptLimiter {
  private readonly fallback: MemoryAttemptLimiter

  constructor(
    private readonly redis: Redis,
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {
    this.fallback = new MemoryAttemptLimiter(max, windowMs)
  }

  async blockedFor(key: string): Promise<number> {
    try {
      const k = this.key(key)
      const [count, ttl] = await Promise.all([this.redis.get(k), this.redis.pttl(k)])
      if (count === null || Number(count) < this.max) return 0
      return Math.max(1, Math.ceil(ttl / 1000))
    } catch {
      return this.fallback.blockedFor(key)
    }
  }

  async hit(key: string): Promise<void> {
    try {
      await this.redis.eval(HIT, 1, this.key(key), String(this.windowMs))
    } catch {
      await this.fallback.hit(key)
    }
  }

  private key(key: string): string {
    return `slink:${this.name}:${key}`
  }
}
