/**
 * Sessions in Redis: one hash per session (`<prefix>session:<idHash>`) that expires with the
 * idle timeout (renewed on every touch), and one set per user of their sessions' hashes, so a
 * password change can end the others.
 */
import type { Redis } from 'ioredis'
import type { SessionStore, StoredSession } from './store.js'

export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: Redis,
    /** Seconds a session key lives without a touch (the idle timeout). */
    private readonly ttlSeconds: number,
    private readonly prefix = 'slink:',
  ) {}

  private key(idHash: string): string {
    return `${this.prefix}session:${idHash}`
  }

  private userKey(userId: number): string {
    return `${this.prefix}user-sessions:${userId}`
  }

  async create(session: StoredSession): Promise<void> {
    await this.redis
      .multi()
      .hset(this.key(session.idHash), {
        userId: String(session.userId),
        csrfSecret: session.csrfSecret,
        createdAt: String(session.createdAt),
        lastSeenAt: String(session.lastSeenAt),
      })
      .expire(this.key(session.idHash), this.ttlSeconds)
      .sadd(this.userKey(session.userId), session.idHash)
      .exec()
  }

  async find(idHash: string): Promise<StoredSession | undefined> {
    const fields = await this.redis.hgetall(this.key(idHash))
    if (!fields.userId || !fields.csrfSecret) return undefined
    return {
      idHash,
      userId: Number(fields.userId),
      csrfSecret: fields.csrfSecret,
      createdAt: Number(fields.createdAt),
      lastSeenAt: Number(fields.lastSeenAt),
    }
  }

  async touch(idHash: string, at: number): Promise<void> {
    const key = this.key(idHash)
    // Only an existing session is renewed (a concurrent sign-out must not bring it back).
    if ((await this.redis.exists(key)) === 0) return
    await this.redis.multi().hset(key, 'lastSeenAt', String(at)).expire(key, this.ttlSeconds).exec()
  }

  async delete(idHash: string): Promise<void> {
    const userId = await this.redis.hget(this.key(idHash), 'userId')
    const multi = this.redis.multi().del(this.key(idHash))
    if (userId !== null) multi.srem(this.userKey(Number(userId)), idHash)
    await multi.exec()
  }

  /** Session keys expire by themselves (the idle timeout); the per-user sets lose them on delete. */
  async sweep(): Promise<void> {}

  async deleteForUser(userId: number, keep?: string): Promise<void> {
    const hashes = await this.redis.smembers(this.userKey(userId))
    const doomed = hashes.filter((hash) => hash !== keep)
    if (doomed.length === 0) return
    await this.redis
      .multi()
      .del(...doomed.map((hash) => this.key(hash)))
      .srem(this.userKey(userId), ...doomed)
      .exec()
  }
}
