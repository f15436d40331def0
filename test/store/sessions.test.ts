/**
 * The two session stores behind one contract: in the database (SQLite here; PostgreSQL runs the
 * same SQL through the HTTP suite) and in Redis. The service on top decides timeouts; the
 * stores keep, find, touch and end sessions, and end a user's other sessions.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'
import { RedisSessionStore } from '../../src/sessions/redis-store.js'
import { IDLE_TIMEOUT_MS, SessionService } from '../../src/sessions/service.js'
import { SqlSessionStore } from '../../src/sessions/sql-store.js'
import type { SessionStore } from '../../src/sessions/store.js'
import { sha256 } from '../../src/shared/secrets.js'
import { redisCheck, REDIS_URL } from '../support/cluster.js'

function contract(
  name: string,
  /** Whether the store removes abandoned sessions itself on sweep (Redis lets them expire). */
  sweeps: boolean,
  setup: () => Promise<{ store: SessionStore; done(): Promise<void> }>,
) {
  describe(name, () => {
    let store: SessionStore
    let done: () => Promise<void>
    let clock = Date.UTC(2026, 0, 1)
    const service = () => new SessionService(store, () => clock)

    beforeAll(async () => {
      ;({ store, done } = await setup())
    })
    afterAll(() => done())

    it('keeps only a hash of the id, finds the session by its id, ends it', async () => {
      const sessions = service()
      const session = await sessions.start(1)
      expect(session.id).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(session.idHash).toBe(sha256(session.id))
      expect(await store.find(session.id)).toBeUndefined()
      expect(await sessions.resume(session.id)).toEqual(session)
      await sessions.end(session.id)
      expect(await sessions.resume(session.id)).toBeNull()
    })

    it('records activity and ends a session idle for 12 hours', async () => {
      const sessions = service()
      const session = await sessions.start(1)
      clock += IDLE_TIMEOUT_MS - 1000
      expect((await sessions.resume(session.id))?.lastSeenAt).toBe(clock)
      clock += IDLE_TIMEOUT_MS - 1000
      expect(await sessions.resume(session.id)).not.toBeNull()
      clock += IDLE_TIMEOUT_MS
      expect(await sessions.resume(session.id)).toBeNull()
      expect(await store.find(session.idHash)).toBeUndefined()
    })

    it("ends a user's other sessions, not the kept one nor other users'", async () => {
      const sessions = service()
      const [kept, other, stranger] = [
        await sessions.start(1),
        await sessions.start(1),
        await sessions.start(2),
      ]
      await sessions.endOthers(1, kept.id)
      expect(await sessions.resume(kept.id)).not.toBeNull()
      expect(await sessions.resume(other.id)).toBeNull()
      expect(await sessions.resume(stranger.id)).not.toBeNull()
      await sessions.endOthers(1)
      expect(await sessions.resume(kept.id)).toBeNull()
    })

    it.skipIf(!sweeps)('removes abandoned sessions at a later sign-in', async () => {
      const sessions = service()
      const abandoned = await sessions.start(2)
      clock += IDLE_TIMEOUT_MS + 2 * 60 * 60 * 1000
      await sessions.start(2)
      expect(await store.find(abandoned.idHash)).toBeUndefined()
    })

    it('ignores ids of the wrong shape', async () => {
      const sessions = service()
      for (const id of [undefined, '', 'short', 'x'.repeat(44), `${'a'.repeat(42)}!`])
        expect(await sessions.resume(id)).toBeNull()
    })
  })
}

contract('sessions in the database', true, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'slink-sessions-'))
  const db: Db = openDatabase({ kind: 'sqlite', path: join(dir, 'sessions.db') })
  await migrate(db)
  const now = Date.now()
  for (const email of ['one@example.com', 'two@example.com'])
    await db.kysely
      .insertInto('users')
      .values({ name: email, email, timezone: 'UTC', created_at: now, updated_at: now })
      .execute()
  return {
    store: new SqlSessionStore(db),
    done: async () => {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
})

const redis = await redisCheck()
describe.skipIf(!redis.ok)('Redis', () => {
  contract('sessions in Redis', false, async () => {
    const client = new Redis(REDIS_URL)
    const prefix = `slink-test-${randomBytes(6).toString('hex')}:`
    return {
      store: new RedisSessionStore(client, IDLE_TIMEOUT_MS / 1000, prefix),
      done: async () => {
        const keys = await client.keys(`${prefix}*`)
        if (keys.length > 0) await client.del(...keys)
        await client.quit()
      },
    }
  })
})
