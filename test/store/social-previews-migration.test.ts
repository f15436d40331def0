/**
 * Migration 0031 on a database that has links: it adds the three social preview columns, every
 * link already there has none (null), and they are written and read through the link store
 * afterwards, and carried by `slink export` and `slink import`. On SQLite, and on PostgreSQL
 * when reachable.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate, migrateTo, migrationNames } from '../../src/db/migrate.js'
import { emptyPostgres, freshSqlite, postgresCheck } from '../support/databases.js'
import { dumpOf, importDump } from '../support/dumps.js'

/** The migration applied just before `name`: the database as the release before it left it. */
const justBefore = (name: string) => migrationNames()[migrationNames().indexOf(name) - 1]!

async function linksBefore(db: Db): Promise<void> {
  await migrateTo(db, justBefore('0031-social-previews'))
  const now = Date.now()
  await sql`INSERT INTO users (name, email, timezone, created_at, updated_at, role)
    VALUES ('a', 'a@example.com', 'UTC', ${now}, ${now}, 'user')`.execute(db.kysely)
  await sql`INSERT INTO domains (user_id, name, url, created_at, updated_at)
    VALUES (NULL, 'short.test', 'https://short.test', ${now}, ${now})`.execute(db.kysely)
  for (const alias of ['one', 'two', 'three']) {
    await sql`INSERT INTO links (user_id, domain_id, alias, url, title, title_locked, target_type,
        disabled, privacy, clicks, created_at, updated_at)
      VALUES (1, 1, ${alias}, ${`https://example.com/${alias}`}, ${alias}, 1, 0, 0, 0, 4, ${now}, ${now})`.execute(
      db.kysely,
    )
  }
}

async function check(db: Db): Promise<void> {
  await linksBefore(db)
  expect(await migrateTo(db, '0031-social-previews')).toEqual({ applied: ['0031-social-previews'] })
  const rows = await db.kysely
    .selectFrom('links')
    .select(['alias', 'title', 'clicks', 'og_title', 'og_description', 'og_image'])
    .orderBy('id')
    .execute()
  expect(rows.map((r) => ({ ...r, clicks: Number(r.clicks) }))).toEqual(
    ['one', 'two', 'three'].map((alias) => ({
      alias,
      title: alias,
      clicks: 4,
      og_title: null,
      og_description: null,
      og_image: null,
    })),
  )
  await db.kysely
    .updateTable('links')
    .set({
      og_title: 'T'.repeat(255),
      og_description: 'D'.repeat(1000),
      og_image: 'https://e.com/i.png',
    })
    .where('alias', '=', 'two')
    .execute()
  const two = await db.kysely
    .selectFrom('links')
    .select(['og_title', 'og_description', 'og_image'])
    .where('alias', '=', 'two')
    .executeTakeFirstOrThrow()
  const fields = {
    og_title: 'T'.repeat(255),
    og_description: 'D'.repeat(1000),
    og_image: 'https://e.com/i.png',
  }
  expect(two).toEqual(fields)

  // Dumped at the current schema, the later migrations applied.
  await migrate(db)
  const target = await freshSqlite()
  try {
    await importDump(target.db, await dumpOf(db))
    const moved = await target.db.kysely
      .selectFrom('links')
      .select(['alias', 'og_title', 'og_description', 'og_image'])
      .orderBy('id')
      .execute()
    const none = { og_title: null, og_description: null, og_image: null }
    expect(moved).toEqual([
      { alias: 'one', ...none },
      { alias: 'two', ...fields },
      { alias: 'three', ...none },
    ])
  } finally {
    await target.drop()
  }
}

const postgres = await postgresCheck()

describe('migration 0031 (social previews)', () => {
  it('on SQLite: adds the columns, null for the links already there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slink-social-'))
    const db = openDatabase({ kind: 'sqlite', path: join(dir, 'social.db') })
    try {
      await check(db)
    } finally {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it.skipIf(!postgres.ok)(
    'on PostgreSQL: adds the columns, null for the links already there',
    async () => {
      const empty = await emptyPostgres('social')
      const db = openDatabase({ kind: 'postgres', url: empty.url })
      try {
        await check(db)
      } finally {
        await db.close()
        await empty.drop()
      }
    },
  )
})
