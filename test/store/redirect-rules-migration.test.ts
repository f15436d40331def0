/**
 * Migration 0030 adds links' `rules` to a database that has links: they keep every column and
 * have no rules; rules written afterwards are read back as a list by the redirect's store.
 * SQLite, and PostgreSQL when reachable.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../src/db/connect.js'
import { migrateTo, migrationNames } from '../../src/db/migrate.js'
import { SqlRedirectStore } from '../../src/redirects/store.js'
import { openDatabase } from '../../src/db/connect.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { emptyPostgres, postgresCheck } from '../support/databases.js'

/** The migration applied just before `name`: the database as the release before it left it. */
const justBefore = (name: string) => migrationNames()[migrationNames().indexOf(name) - 1]!

const postgres = await postgresCheck()

const engines = [
  {
    name: 'SQLite',
    ok: true,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'slink-rules-migration-'))
      const db = openDatabase({ kind: 'sqlite', path: join(dir, 'r.db') })
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
      const empty = await emptyPostgres('rules')
      const db = openDatabase({ kind: 'postgres', url: empty.url })
      return { db, drop: async () => (await db.close(), await empty.drop()) }
    },
  },
]

async function seed(db: Db): Promise<void> {
  await sql`INSERT INTO users (name, email, timezone, created_at, updated_at)
    VALUES ('A', 'a@x', 'UTC', 1, 1)`.execute(db.kysely)
  await sql`INSERT INTO domains (user_id, name, url, created_at, updated_at)
    VALUES (NULL, 'short.test', 'http://short.test', 1, 1)`.execute(db.kysely)
  for (const alias of ['one', 'two']) {
    await sql`INSERT INTO links (user_id, domain_id, alias, url, target_type, country_target, clicks, created_at, updated_at)
      VALUES (1, 1, ${alias}, ${`https://example.com/${alias}`}, 1, '[{"key":"US","value":"https://us.example/"}]', 7, 1, 2)`.execute(
      db.kysely,
    )
  }
}

for (const engine of engines) {
  describe.skipIf(!engine.ok)(`migration 0030 on ${engine.name}`, () => {
    it('adds rules to stored links (none), and rules written later are read as a list', async () => {
      const { db, drop } = await engine.open()
      try {
        await migrateTo(db, justBefore('0030-redirect-rules'))
        await seed(db)
        expect((await migrateTo(db, '0030-redirect-rules')).applied).toEqual([
          '0030-redirect-rules',
        ])
        const rows = await db.kysely.selectFrom('links').selectAll().orderBy('id').execute()
        expect(rows.map((r) => [r.alias, r.rules, Number(r.clicks), r.country_target])).toEqual([
          ['one', null, 7, '[{"key":"US","value":"https://us.example/"}]'],
          ['two', null, 7, '[{"key":"US","value":"https://us.example/"}]'],
        ])
        const store = new SqlRedirectStore(db)
        expect((await store.findLink(1, 'one'))?.link.rules).toBeNull()
        const rules = [
          { conditions: [{ type: 'device', value: 'mobile' }], url: 'https://m.example/' },
        ]
        await db.kysely
          .updateTable('links')
          .set({ rules: JSON.stringify(rules) })
          .where('alias', '=', 'two')
          .execute()
        expect((await store.findLink(1, 'two'))?.link.rules).toEqual(rules)
      } finally {
        await drop()
      }
    })
  })
}
