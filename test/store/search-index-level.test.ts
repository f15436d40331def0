/**
 * Migration 0032 leaves SQLite's search index in one segment on a level where the writes that
 * follow do not soon merge it again (docs/adr/0009-search-index-merges-under-sustained-writes.md):
 * after a bulk load and the `optimize` of migration 0020 alone, a few thousand single creates on
 * 20,000 links merge the whole index again; after 0032 10,000 leave it in place.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate, migrateTo } from '../../src/db/migrate.js'
import { SqlLinkStore } from '../../src/links/store.js'
import { OWNED_AT as T, owner } from '../support/owners.js'

const LINKS = 20_000
const CREATES = 4_000

/** The segments of the index, by FTS5's own table of them. */
function segments(path: string): number[] {
  const raw = new SQLite(path, { readonly: true })
  try {
    return raw
      .prepare('SELECT DISTINCT segid FROM links_search_idx ORDER BY segid')
      .pluck()
      .all() as number[]
  } finally {
    raw.close()
  }
}

/**
 * Links created one a transaction, as the service writes them, until the index's segment
 * `segid` is merged into another: how many it took, or null if `most` did not.
 */
function createsUntilMerged(
  path: string,
  owner: { id: number; domain: number },
  segid: number,
  most: number,
): number | null {
  const raw = new SQLite(path)
  try {
    raw.pragma('journal_mode = WAL')
    raw.pragma('synchronous = NORMAL')
    const insert = raw.prepare(
      'INSERT INTO links (user_id, domain_id, alias, url, title_locked, target_type, disabled, privacy, clicks, created_at, updated_at) ' +
        "VALUES (?, ?, ?, 'https://example.com/new?src=test', 0, 0, 0, 0, 0, ?, ?)",
    )
    const present = raw.prepare('SELECT 1 FROM links_search_idx WHERE segid = ? LIMIT 1').pluck()
    for (let i = 1; i <= most; i++) {
      insert.run(owner.id, owner.domain, `new${i}`, T, T)
      if (i % 50 === 0 && present.get(segid) === undefined) return i
    }
    return null
  } finally {
    raw.close()
  }
}

describe('migration 0032 on SQLite', () => {
  let dir: string
  let path: string
  let db: Db
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slink-search-level-'))
    path = join(dir, 'links.db')
    db = openDatabase({ kind: 'sqlite', path })
  })
  afterEach(async () => {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('puts the index where the creates that follow leave it in place', async () => {
    await migrateTo(db, '0031-social-previews')
    const alice = await owner(db, 'alice@example.com')
    const writer = { id: alice.id, domain: alice.link('any').domain_id }
    // 20,000 links in one statement, then the index as migration 0020 left it.
    await sql`INSERT INTO links (user_id, domain_id, alias, url, title, title_locked, target_type, disabled,
        privacy, clicks, created_at, updated_at)
      SELECT ${writer.id}, ${writer.domain}, 'b' || i, 'https://example.com/landing/' || i, 'Landing page ' || i,
        1, 0, 0, 0, 0, ${T}, ${T}
      FROM (WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${LINKS - 1})
        SELECT i FROM n)`.execute(db.kysely)
    await sql`INSERT INTO links_search (links_search) VALUES ('optimize')`.execute(db.kysely)
    await db.close()
    const before = join(dir, 'before.db')
    copyFileSync(path, before)

    // Without 0032, a few thousand creates merge the one segment with theirs.
    const optimized = segments(before)
    expect(optimized).toHaveLength(1)
    expect(createsUntilMerged(before, writer, optimized[0]!, CREATES)).not.toBeNull()

    db = openDatabase({ kind: 'sqlite', path })
    expect((await migrate(db)).applied).toEqual(['0032-search-index-level'])
    const settled = segments(path)
    expect(settled).toHaveLength(1)
    await db.close()
    expect(createsUntilMerged(path, writer, settled[0]!, 10_000)).toBeNull()

    db = openDatabase({ kind: 'sqlite', path })
    await sql`INSERT INTO links_search (links_search, rank) VALUES ('integrity-check', 1)`.execute(
      db.kysely,
    )
    const page = { page: 1, perPage: 100, sort: 'asc' as const }
    const found = await new SqlLinkStore(db).list(
      alice.id,
      { searchBy: 'alias', search: 'b1999', sortBy: 'id' },
      page,
      T,
    )
    expect(found.rows.map((l) => l.alias)).toEqual([
      'b1999',
      'b19990',
      'b19991',
      'b19992',
      'b19993',
      'b19994',
      'b19995',
      'b19996',
      'b19997',
      'b19998',
      'b19999',
    ])
    const level = await sql<{ n: number }>`SELECT count(*) AS n FROM links_search
      WHERE links_search MATCH 'level'`.execute(db.kysely)
    expect(level.rows).toEqual([{ n: 0 }])
  })

  it('leaves an empty index as it is', async () => {
    await migrateTo(db, '0031-social-previews')
    const data = () => sql`SELECT id, block FROM links_search_data ORDER BY id`.execute(db.kysely)
    const before = (await data()).rows
    expect((await migrate(db)).applied).toEqual(['0032-search-index-level'])
    expect((await data()).rows).toEqual(before)
    await db.close()
    expect(segments(path)).toEqual([])
    db = openDatabase({ kind: 'sqlite', path })
  })
})
