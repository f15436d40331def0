/**
 * `GET /ready`, for load balancers and container probes: 200 when the database answers, its
 * schema has every migration this version knows, and Redis (when configured) answers; 503
 * otherwise, with each check's result in a small JSON body. `/health` only says the process is up.
 */
import { setTimeout as delay } from 'node:timers/promises'
import { sql } from 'kysely'
import type { FastifyInstance } from 'fastify'
import type { Redis } from 'ioredis'
import type { Db } from '../db/connect.js'
import { pendingMigrations } from '../db/migrate.js'

/** How long one check may take before it counts as failed (a probe's own timeout is longer). */
export const READY_CHECK_TIMEOUT_MS = 2000

/** What a check found: `ok`, or a few words on what is wrong. */
type Outcome = string

async function within(work: () => Promise<Outcome>, failed: Outcome): Promise<Outcome> {
  const timer = new AbortController()
  try {
    return await Promise.race([
      work().catch(() => failed),
      delay(READY_CHECK_TIMEOUT_MS, 'timed out', { signal: timer.signal }),
    ])
  } finally {
    timer.abort()
  }
}

async function schemaOutcome(db: Db): Promise<Outcome> {
  const pending = (await pendingMigrations(db)).length
  if (pending === 0) return 'ok'
  return `${pending} migration${pending === 1 ? '' : 's'} not applied`
}

export function readyRoute(app: FastifyInstance, db: Db, redis: Redis | null): void {
  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    const [database, cache] = await Promise.all([
      within(async () => {
        await sql`select 1`.execute(db.kysely)
        return 'ok'
      }, 'unreachable'),
      redis
        ? within(
            async () => ((await redis.ping()) === 'PONG' ? 'ok' : 'unexpected answer'),
            'unreachable',
          )
        : null,
    ])
    const checks: Record<string, Outcome> = {
      database,
      schema:
        database === 'ok' ? await within(() => schemaOutcome(db), 'unreadable') : 'not checked',
      ...(cache === null ? {} : { redis: cache }),
    }
    const ready = Object.values(checks).every((outcome) => outcome === 'ok')
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ready' : 'unavailable', checks })
  })
}
