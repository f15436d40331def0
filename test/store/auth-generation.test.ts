/**
 * Keys a process has checked are kept while the auth generation (migration 0012) stands still;
 * every change that can stop a key moves it, whoever makes the change: here a second connection
 * to the same database stands for another process (a cluster worker, the CLI, a restore).
 * Each check here is a request of its own, in a turn of the event loop of its own, as requests
 * come: on SQLite, the reads of one turn share a snapshot (src/db/read-snapshot.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseConfig } from '../../src/config.js'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'
import { AUTH_GENERATION_TTL_MS, UserService } from '../../src/users/service.js'
import { SqlUserStore } from '../../src/users/store.js'
import { emptyPostgres, postgresCheck } from '../support/databases.js'

interface Pair {
  /** The process that authenticates and keeps what it checked. */
  here: Db
  /** Another process writing to the same database. */
  there: Db
  drop(): Promise<void>
}

/** Two connections to one database, the first migrating it. */
async function pairOn(config: DatabaseConfig, remove: () => Promise<void>): Promise<Pair> {
  const here = openDatabase(config)
  await migrate(here)
  const there = openDatabase(config)
  return {
    here,
    there,
    drop: async () => {
      await here.close()
      await there.close()
      await remove()
    },
  }
}

async function sqlitePair(): Promise<Pair> {
  const dir = mkdtempSync(join(tmpdir(), 'slink-auth-'))
  return pairOn({ kind: 'sqlite', path: join(dir, 'auth.db') }, async () =>
    rmSync(dir, { recursive: true, force: true }),
  )
}

async function postgresPair(): Promise<Pair> {
  const empty = await emptyPostgres()
  return pairOn({ kind: 'postgres', url: empty.url }, () => empty.drop())
}

const postgres = await postgresCheck()
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

function authGenerationSuite(engine: string, open: () => Promise<Pair>, skip = false) {
  describe.skipIf(skip)(`keys kept between requests, ${engine}`, () => {
    let pair: Pair
    let users: UserService
    let elsewhere: UserService
    let store: SqlUserStore
    /** This process's monotonic clock (ms): how long its last read of the counter serves. */
    let clock = 0
    beforeAll(async () => {
      pair = await open()
      store = new SqlUserStore(pair.here)
      users = new UserService(store, Date.now, () => clock)
      elsewhere = new UserService(new SqlUserStore(pair.there))
    })
    /**
     * A request's check of a key, and a look at the counter, each in a turn of its own. Unless
     * told otherwise, the request comes once the last read of the counter no longer serves.
     */
    const authenticate = (key: string, after = AUTH_GENERATION_TTL_MS) => {
      clock += after
      return nextTurn().then(() => users.authenticate(key))
    }
    const generation = () => nextTurn().then(() => store.authGeneration())
    afterAll(() => pair.drop())

    async function newKey(email: string): Promise<{ key: string; userId: number }> {
      const { user, apiKey } = await elsewhere.createUser({ email })
      const principal = await authenticate(apiKey)
      expect(principal?.userId).toBe(user.id)
      return { key: apiKey, userId: user.id }
    }

    it('keeps a checked key without looking it up again while nothing changed', async () => {
      const { key, userId } = await newKey('kept@example.com')
      const before = await generation()
      expect(before).toBeGreaterThanOrEqual(1)
      // The key's row is gone behind the trigger's back (the generation does not move): a
      // process that looked the key up would refuse it; this one answers from what it kept.
      await sql`ALTER TABLE api_keys RENAME TO api_keys_away`.execute(pair.there.kysely)
      try {
        expect(await authenticate(key)).toMatchObject({ userId })
      } finally {
        await sql`ALTER TABLE api_keys_away RENAME TO api_keys`.execute(pair.there.kysely)
      }
      expect(await generation()).toBe(before)
    })

    it('sees a key revoked by another process once its last read of the counter has served its time, not before', async () => {
      const { key, userId } = await newKey('revoked-later@example.com')
      expect(await authenticate(key)).toMatchObject({ userId })
      await elsewhere.revokeKey(key)
      // Within the time a read serves, the kept key still answers (the revocation is unseen)...
      expect(await authenticate(key, AUTH_GENERATION_TTL_MS - 1)).toMatchObject({ userId })
      // ...and the next request after it refuses the key: within the contract's one second.
      expect(await authenticate(key, 1)).toBeNull()
      expect(AUTH_GENERATION_TTL_MS).toBeLessThanOrEqual(1000)
    })

    it('reads the counter once for the requests that come together, and again after a failed read', async () => {
      const { key, userId } = await newKey('together@example.com')
      const read = store.authGeneration.bind(store)
      let reads = 0
      let fail = false
      store.authGeneration = () => {
        reads++
        return fail ? Promise.reject(new Error('connection lost')) : read()
      }
      try {
        clock += AUTH_GENERATION_TTL_MS
        const answers = await Promise.all(Array.from({ length: 20 }, () => users.authenticate(key)))
        expect(answers.every((answer) => answer?.userId === userId)).toBe(true)
        expect(reads).toBe(1)
        clock += AUTH_GENERATION_TTL_MS
        fail = true
        await expect(users.authenticate(key)).rejects.toThrow('connection lost')
        fail = false
        expect(await authenticate(key, 0)).toMatchObject({ userId })
        expect(reads).toBe(3)
      } finally {
        store.authGeneration = read
      }
    })

    it('stops a key revoked, or a user disabled, by this process on its next request', async () => {
      const revoked = await newKey('revoked-here@example.com')
      expect(await authenticate(revoked.key)).toMatchObject({ userId: revoked.userId })
      expect(await authenticate(revoked.key, 0)).toMatchObject({ userId: revoked.userId })
      await users.revokeKey(revoked.key)
      expect(await authenticate(revoked.key, 0)).toBeNull()

      const disabled = await newKey('disabled-here@example.com')
      expect(await authenticate(disabled.key)).toMatchObject({ userId: disabled.userId })
      await store.setDisabled(disabled.userId, true, Date.now())
      expect(await authenticate(disabled.key, 0)).toBeNull()
    })

    it('stops a key revoked by another process on the next request once the last read has served', async () => {
      const { key } = await newKey('revoked-there@example.com')
      const before = await generation()
      await elsewhere.revokeKey(key)
      expect(await generation()).toBe(before! + 1)
      expect(await authenticate(key)).toBeNull()
    })

    it('stops the keys of a user disabled by another process, and takes them back once enabled', async () => {
      const { key, userId } = await newKey('disabled-there@example.com')
      await new SqlUserStore(pair.there).setDisabled(userId, true, Date.now())
      expect(await authenticate(key)).toBeNull()
      await new SqlUserStore(pair.there).setDisabled(userId, false, Date.now())
      expect(await authenticate(key)).toMatchObject({ userId })
    })

    it('stops a key deleted, or its user deleted, by plain SQL elsewhere', async () => {
      const first = await newKey('deleted-key@example.com')
      await sql`DELETE FROM api_keys WHERE user_id = ${first.userId}`.execute(pair.there.kysely)
      expect(await authenticate(first.key)).toBeNull()
      const second = await newKey('deleted-user@example.com')
      await sql`DELETE FROM api_keys WHERE user_id = ${second.userId}`.execute(pair.there.kysely)
      await sql`DELETE FROM users WHERE id = ${second.userId}`.execute(pair.there.kysely)
      expect(await authenticate(second.key)).toBeNull()
    })

    it('does not move for a key’s last use, nor for a new key', async () => {
      const { key, userId } = await newKey('quiet@example.com')
      const before = await generation()
      const principal = (await authenticate(key))!
      await store.markKeyUsed(principal.keyId, Date.now())
      await elsewhere.createNamedKey(userId, { key_name: 'Second' })
      expect(await generation()).toBe(before)
    })

    it('keeps nothing when the counter is missing, and still answers from the keys', async () => {
      const { key, userId } = await newKey('no-counter@example.com')
      await sql`DELETE FROM auth_generation`.execute(pair.there.kysely)
      try {
        expect(await generation()).toBeNull()
        expect(await authenticate(key)).toMatchObject({ userId })
        // Without a counter a revocation cannot be seen by a kept key, so none is kept.
        await sql`UPDATE api_keys SET revoked_at = 1 WHERE user_id = ${userId}`.execute(
          pair.there.kysely,
        )
        expect(await authenticate(key)).toBeNull()
      } finally {
        await sql`INSERT INTO auth_generation (value) VALUES (1000)`.execute(pair.there.kysely)
      }
    })
  })
}

authGenerationSuite('SQLite', sqlitePair)
authGenerationSuite('PostgreSQL', postgresPair, !postgres.ok)
