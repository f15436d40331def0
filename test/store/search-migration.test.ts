/**
 * Migration 0020 moves a database at the schema before it (0017), with links in it, onto the
 * databases' own search indexes: SQLite's FTS5 trigram table over alias, URL and title, kept by
 * triggers, and PostgreSQL's pg_trgm GIN indexes with `fastupdate = off`. The pending and suffix
 * tables go, and the links there before are found as before, as are those written after.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate, migrateTo } from '../../src/db/migrate.js'
import { SqlLinkStore } from '../../src/links/store.js'
import { postgresCheck, unmigratedPostgresPerTest } from '../support/databases.js'
import { OWNED_AT as T, owner } from '../support/owners.js'

const postgres = await postgresCheck()
const page = { page: 1, perPage: 100, sort: 'asc' as const }

async function aliasesFound(
  db: Db,
  userId: number,
  searchBy: 'alias' | 'url' | 'title',
  search: string,
): Promise<string[]> {
  const found = await new SqlLinkStore(db).list(userId, { searchBy, search, sortBy: 'id' }, page, T)
  return found.rows.map((l) => l.alias)
}

/** The tables and triggers a database has whose names say they belong to the search. */
async function searchObjects(db: Db): Promise<string[]> {
  const query =
    db.dialect === 'sqlite'
      ? sql<{ name: string }>`SELECT type || ' ' || name AS name FROM sqlite_master
          WHERE (name LIKE 'links_search%' OR name LIKE 'links_alias%') AND type IN ('table', 'trigger')`
      : sql<{ name: string }>`
          SELECT 'table ' || tablename AS name FROM pg_tables
            WHERE schemaname = 'public' AND tablename LIKE 'links_search%'
          UNION ALL SELECT 'trigger ' || tgname FROM pg_trigger
            WHERE NOT tgisinternal AND tgname LIKE 'links_alias%'
          UNION ALL SELECT 'function ' || proname FROM pg_proc WHERE proname LIKE 'slink_alias%'
          UNION ALL SELECT 'index ' || c.relname || ' ' || array_to_string(c.reloptions, ',')
            FROM pg_class AS c WHERE c.relkind = 'i' AND c.relname LIKE 'links_%_trigrams'`
  return (await query.execute(db.kysely)).rows.map((r) => r.name).sort()
}

type Owner = Awaited<ReturnType<typeof owner>>

/** Links at the schema of 0017, some changed since SQLite's indexer last ran, then 0020. */
async function migrateWithLinks(db: Db): Promise<Owner> {
  await migrateTo(db, '0017-search-changed-text')
  const before = await searchObjects(db)
  expect(before).toContain('table links_search_suffixes')
  const alice = await owner(db, 'alice@example.com')
  // Written as the release of 0017 wrote them: its columns only.
  const insert = async (row: ReturnType<Owner['link']>) =>
    (await db.kysely.insertInto('links').values(row).returning('id').executeTakeFirstOrThrow()).id
  for (const alias of ['ÄbcDé', 'b5678', 'Spring_Sale']) {
    await insert({ ...alice.link(alias), title: `Title of ${alias}` })
  }
  const gone = await insert(alice.link('deleted-1'))
  await db.kysely.deleteFrom('links').where('id', '=', gone).execute()
  const renamed = await insert(alice.link('before-1'))
  await db.kysely
    .updateTable('links')
    .set({ alias: 'after-1', url: 'https://example.com/moved' })
    .where('id', '=', renamed)
    .execute()
  expect((await migrate(db)).applied).toContain('0020-standard-search')
  return alice
}

async function expectFoundAsBefore(db: Db, alice: Owner): Promise<void> {
  expect(await aliasesFound(db, alice.id, 'alias', 'äbc')).toEqual(['ÄbcDé'])
  expect(await aliasesFound(db, alice.id, 'alias', '567')).toEqual(['b5678'])
  expect(await aliasesFound(db, alice.id, 'alias', 'g_s')).toEqual(['Spring_Sale'])
  expect(await aliasesFound(db, alice.id, 'alias', 'deleted')).toEqual([])
  expect(await aliasesFound(db, alice.id, 'alias', 'before')).toEqual([])
  expect(await aliasesFound(db, alice.id, 'alias', 'ter-1')).toEqual(['after-1'])
  expect(await aliasesFound(db, alice.id, 'url', 'com/moved')).toEqual(['after-1'])
  expect(await aliasesFound(db, alice.id, 'title', 'TITLE OF S')).toEqual(['Spring_Sale'])
  // Written after the migration: found through what keeps the index now.
  const store = new SqlLinkStore(db)
  const added = await store.create(alice.link('later-9'), [])
  expect(await aliasesFound(db, alice.id, 'alias', 'ter-9')).toEqual(['later-9'])
  await store.update(added.id, { alias: 'renamed-9' }, undefined)
  expect(await aliasesFound(db, alice.id, 'alias', 'ter-9')).toEqual([])
  expect(await aliasesFound(db, alice.id, 'alias', 'named-9')).toEqual(['renamed-9'])
  await store.delete(added.id)
  expect(await aliasesFound(db, alice.id, 'alias', 'named-9')).toEqual([])
}

describe('migration 0020 on SQLite', () => {
  let dir: string
  let db: Db
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slink-search-migration-'))
    db = openDatabase({ kind: 'sqlite', path: join(dir, 'search.db') })
  })
  afterEach(async () => {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('moves a database with links onto an FTS5 trigram table kept by triggers', async () => {
    const alice = await migrateWithLinks(db)
    expect(await searchObjects(db)).toEqual([
      'table links_search',
      'table links_search_config',
      'table links_search_data',
      'table links_search_docsize',
      'table links_search_idx',
      'trigger links_search_delete',
      'trigger links_search_insert',
      'trigger links_search_update',
    ])
    // The index holds exactly the links' text (FTS5's own check against the content table).
    await sql`INSERT INTO links_search (links_search, rank) VALUES ('integrity-check', 1)`.execute(
      db.kysely,
    )
    await expectFoundAsBefore(db, alice)
    await sql`INSERT INTO links_search (links_search, rank) VALUES ('integrity-check', 1)`.execute(
      db.kysely,
    )
  })
})

describe.skipIf(!postgres.ok)('migration 0020 on PostgreSQL', () => {
  const database = unmigratedPostgresPerTest('srch')
  let db: Db
  beforeEach(() => {
    db = database()
  })

  it('moves a database with links onto pg_trgm indexes without a pending list', async () => {
    const alice = await migrateWithLinks(db)
    expect(await searchObjects(db)).toEqual([
      'index links_alias_trigrams fastupdate=off',
      'index links_title_trigrams fastupdate=off',
      'index links_url_trigrams fastupdate=off',
    ])
    await expectFoundAsBefore(db, alice)
  })
})
