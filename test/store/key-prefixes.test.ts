/**
 * What of an API key is kept in clear: `slk_` and 8 characters of a generated key, the first 8
 * of any other; migration 0019 cuts the longer prefixes stored before (12 characters, or half of
 * a short key), and every key still authenticates. Runs on SQLite, and on PostgreSQL when
 * reachable.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate, migrateTo } from '../../src/db/migrate.js'
import { generateApiKey, keyPrefix, sha256 } from '../../src/shared/secrets.js'
import { UserService } from '../../src/users/service.js'
import { SqlUserStore } from '../../src/users/store.js'
import { emptyPostgres, postgresCheck } from '../support/databases.js'

const GENERATED = `slk_${'Ab3'.repeat(13)}x`

describe('keyPrefix', () => {
  it.each([
    [GENERATED, 'slk_Ab3Ab3Ab'],
    ['slk_0123456789abcdefghij', 'slk_01234567'],
    // Shorter than a generated key's prefix needs: the first 8 only.
    ['slk_0123456789abcdefghi', 'slk_0123'],
    ['initial-key-0123456789', 'initial-'],
    ['redirect-test-key-0123456789abcdef', 'redirect'],
    ['sixteen-chars-ok', 'sixteen-'],
  ])('%j → %j', (key, prefix) => {
    expect(keyPrefix(key)).toBe(prefix)
  })

  it('keeps 8 random characters of a generated key', () => {
    const key = generateApiKey()
    expect(keyPrefix(key)).toBe(key.slice(0, 12))
    expect(key).toHaveLength(44)
  })
})

const postgres = await postgresCheck()

const engines: { name: string; ok: boolean; open(): Promise<{ db: Db; drop(): Promise<void> }> }[] =
  [
    {
      name: 'SQLite',
      ok: true,
      async open() {
        const dir = mkdtempSync(join(tmpdir(), 'slink-key-prefixes-'))
        const db = openDatabase({ kind: 'sqlite', path: join(dir, 'k.db') })
        return {
          db,
          drop: async () => (await db.close(), rmSync(dir, { recursive: true, force: true })),
        }
      },
    },
    {
      name: 'PostgreSQL',
      ok: postgres.ok,
      async open() {
        const empty = await emptyPostgres()
        const db = openDatabase({ kind: 'postgres', url: empty.url })
        return { db, drop: async () => (await db.close(), await empty.drop()) }
      },
    },
  ]

/** The prefix kept before migration 0019: the first 12 characters, or half of a shorter key. */
const oldPrefix = (key: string) => key.slice(0, Math.min(12, Math.floor(key.length / 2)))

/** Keys as they were stored before, and the prefix each keeps after the migration. */
const KEYS: [key: string, after: string][] = [
  [GENERATED, 'slk_Ab3Ab3Ab'],
  ['slk_0123456789abcdefghij', 'slk_01234567'],
  ['slk_short-key-0123', 'slk_shor'],
  ['initial-key-0123456789', 'initial-'],
  ['redirect-test-key-0123456789', 'redirect'],
  ['sixteen-chars-ok', 'sixteen-'],
]

for (const engine of engines) {
  describe.skipIf(!engine.ok)(`migration 0019 on ${engine.name}`, () => {
    let opened: { db: Db; drop(): Promise<void> } | null = null
    afterEach(async () => {
      await opened?.drop()
      opened = null
    })

    it('cuts every stored prefix to the fixed one, and every key still authenticates', async () => {
      opened = await engine.open()
      const { db } = opened
      await migrateTo(db, '0017-search-changed-text')
      await sql`INSERT INTO users (name, email, timezone, created_at, updated_at) VALUES ('A', 'a@x', 'UTC', 1, 1)`.execute(
        db.kysely,
      )
      for (const [key] of KEYS)
        await sql`INSERT INTO api_keys (user_id, prefix, hash, created_at) VALUES (1, ${oldPrefix(key)}, ${sha256(key)}, 1)`.execute(
          db.kysely,
        )
      const before = await db.kysely.selectFrom('api_keys').select('prefix').orderBy('id').execute()
      expect(before.map((r) => r.prefix)).toEqual(KEYS.map(([key]) => oldPrefix(key)))

      expect((await migrate(db)).applied).toContain('0019-short-key-prefixes')

      const after = await db.kysely.selectFrom('api_keys').select('prefix').orderBy('id').execute()
      expect(after.map((r) => r.prefix)).toEqual(KEYS.map(([, prefix]) => prefix))
      expect(after.map((r) => r.prefix)).toEqual(KEYS.map(([key]) => keyPrefix(key)))
      const users = new UserService(new SqlUserStore(db))
      for (const [key] of KEYS) expect(await users.authenticate(key), key).not.toBeNull()
    })

    it('stores a new key with the fixed prefix only', async () => {
      opened = await engine.open()
      const { db } = opened
      await migrate(db)
      const users = new UserService(new SqlUserStore(db))
      const given = 'a-chosen-key-of-forty-characters-0123456'
      const { apiKey } = await users.createUser({ email: 'b@x', apiKey: given })
      const { apiKey: generated } = await users.createUser({ email: 'c@x' })
      const rows = await db.kysely.selectFrom('api_keys').select('prefix').orderBy('id').execute()
      expect(rows.map((r) => r.prefix)).toEqual(['a-chosen', generated.slice(0, 12)])
      expect(apiKey).toBe(given)
      for (const key of [given, generated]) expect(await users.authenticate(key)).not.toBeNull()
    })
  })
}
