/**
 * Rotation counters shared by every process, so the round-robin holds across them: in Redis
 * (INCR, seeded from the stored position), or in the database itself (one atomic UPDATE …
 * RETURNING per rotation click). While Redis is away the database counter takes over.
 */
import type { Redis } from 'ioredis'
import { sql } from 'kysely'
import type { Db } from '../db/connect.js'
import { writeNowIfIdle } from '../db/write-lock.js'
import type { RotationCounter } from '../redirects/rotation-counter.js'
import type { MaybePromise } from '../shared/maybe-promise.js'

export class SqlRotationCounter implements RotationCounter {
  private readonly nextSync: ((linkId: number, cycle: number) => number) | null

  constructor(private readonly db: Db) {
    const statement = db.sqlite?.prepare(
      'UPDATE links SET last_rotation = (coalesce(last_rotation, -1) + 1) % ? WHERE id = ? RETURNING last_rotation',
    )
    this.nextSync = statement
      ? (linkId, cycle) =>
          Number(
            (statement.get(cycle, linkId) as { last_rotation: number } | undefined)
              ?.last_rotation ?? 0,
          )
      : null
  }

  next(linkId: number, cycleLength: number): MaybePromise<number> {
    const cycle = Math.max(1, cycleLength)
    // Synchronous on SQLite while no transaction is open on the connection.
    const nextSync = this.nextSync
    const next =
      nextSync === null ? undefined : writeNowIfIdle(this.db, () => nextSync(linkId, cycle))
    if (next !== undefined) return next
    return sql<{
      last_rotation: number
    }>`UPDATE links SET last_rotation = (coalesce(last_rotation, -1) + 1) % ${cycle}
      WHERE id = ${linkId} RETURNING last_rotation`
      .execute(this.db.kysely)
      .then((result) => Number(result.rows[0]?.last_rotation ?? 0))
  }

  /** Positions are stored as they are taken: nothing to write later. */
  drainChanged(): Map<number, number> {
    return new Map()
  }
}

const SEED_AND_INCR = `redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('INCR', KEYS[1])`

export class RedisRotationCounter implements RotationCounter {
  private changed = new Map<number, number>()

  constructor(
    private readonly redis: Redis,
    private readonly fallback: RotationCounter,
  ) {}

  next(linkId: number, cycleLength: number, lastRotation: number | null): MaybePromise<number> {
    const cycle = Math.max(1, cycleLength)
    const counted = this.redis
      .eval(SEED_AND_INCR, 1, `slink:rotation:${linkId}`, String(lastRotation ?? -1))
      .then((n) => {
        const position = (((Number(n) % cycle) + cycle) % cycle) as number
        this.changed.set(linkId, position)
        return position
      })
    return counted.catch(() => this.fallback.next(linkId, cycleLength, lastRotation))
  }

  drainChanged(): Map<number, number> {
    const changed = this.changed
    this.changed = new Map()
    for (const [linkId, position] of this.fallback.drainChanged()) changed.set(linkId, position)
    return changed
  }
}
