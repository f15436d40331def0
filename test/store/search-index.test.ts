/**
 * SQLite's search indexes off the write path (migration 0011): what the indexer leaves in them,
 * with two processes at once, after a nudge, and what the migration builds from existing links.
 * The answers of the searches themselves are in the store contract (both engines).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { shareWriteLock, WriteLockTurns } from '../../src/db/write-lock.js'
import { migrate, migrateTo } from '../../src/db/migrate.js'
import { aliasSuffixes } from '../../src/links/search-index-sql.js'
import { MERGE_DEBT_MAX, SearchIndexer } from '../../src/links/search-indexer.js'

const T = 1_700_000_000_000

let dir: string
let db: Db
const open = () => openDatabase({ kind: 'sqlite', path: join(dir, 'search.db') })

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slink-search-'))
  db = open()
  await migrateTo(db, '0010-webhook-attempts')
  await sql`INSERT INTO users (name, email, timezone, created_at, updated_at)
    VALUES ('A', 'a@example.com', 'UTC', ${T}, ${T})`.execute(db.kysely)
  await sql`INSERT INTO domains (user_id, name, url, created_at, updated_at)
    VALUES (NULL, 'short.test', 'https://short.test', ${T}, ${T})`.execute(db.kysely)
})
afterEach(async () => {
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

async function addLink(alias: string, url: string, title: string | null): Promise<number> {
  const { rows } = await sql<{ id: number }>`INSERT INTO links (user_id, domain_id, alias, url,
      title, title_locked, target_type, disabled, privacy, clicks, created_at, updated_at)
    VALUES (1, 1, ${alias}, ${url}, ${title}, 0, 0, 0, 0, 0, ${T}, ${T}) RETURNING id`.execute(
    db.kysely,
  )
  return rows[0]!.id
}

/** The suffix table, as sorted `suffix link_id` lines. */
async function suffixRows(): Promise<string[]> {
  const { rows } = await sql<{ suffix: string; link_id: number }>`
    SELECT suffix, link_id FROM links_search_suffixes`.execute(db.kysely)
  return rows.map((r) => `${r.suffix} ${r.link_id}`).sort()
}

/** What the suffix table must hold for these links (id → alias). */
function expectedSuffixes(links: Record<number, string>): string[] {
  return Object.entries(links)
    .flatMap(([id, alias]) => aliasSuffixes(alias).map((s) => `${s} ${id}`))
    .sort()
}

/** Calls `step(pages)` before each merge step the indexer runs on `db`'s connection. */
function onMerge(step: (pages: number) => void): () => void {
  return onStatements({ "'merge'": (params) => step(Number(params[0])) })
}

/**
 * Calls `hooks[part]` before each run of a statement of `db`'s connection whose text includes
 * `part`, and its `after` after it.
 */
function onStatements(
  hooks: Record<string, (params: unknown[]) => void>,
  after: Record<string, () => void> = {},
): () => void {
  const handle = db.sqlite!
  const prepare = handle.prepare.bind(handle)
  const spy = vi.spyOn(handle, 'prepare').mockImplementation(((source: string) => {
    const statement = prepare(source)
    const part = Object.keys(hooks).find((one) => source.includes(one))
    if (part !== undefined) {
      const run = statement.run.bind(statement)
      statement.run = (...params: unknown[]) => {
        hooks[part]!(params)
        const result = run(...params)
        after[part]?.()
        return result
      }
    }
    return statement
  }) as typeof handle.prepare)
  return () => spy.mockRestore()
}

async function pendingIds(): Promise<number[]> {
  const { rows } = await sql<{ link_id: number }>`
    SELECT link_id FROM links_search_pending ORDER BY link_id`.execute(db.kysely)
  return rows.map((r) => r.link_id)
}

/** Rowids the trigram index finds for an FTS5 query. */
async function ftsHits(query: string): Promise<number[]> {
  const { rows } = await sql<{ rowid: number }>`
    SELECT rowid FROM links_search WHERE links_search MATCH ${query} ORDER BY rowid`.execute(
    db.kysely,
  )
  return rows.map((r) => r.rowid)
}

describe('migrations 0011 and 0016', () => {
  it('build the suffixes (three characters and more) and the trigram index of the links already stored, with nothing pending', async () => {
    const a = await addLink('Abc-1', 'https://one.example/path', 'First page')
    const b = await addLink('x_Y', 'https://two.example/', null)
    await migrateTo(db, '0015-postgres-link-counts')
    // 0011 wrote every suffix; 0016 drops those shorter than a searched term can be.
    expect((await suffixRows()).length).toBe(5 + 3)
    await migrate(db)
    expect(await pendingIds()).toEqual([])
    expect(await suffixRows()).toEqual(expectedSuffixes({ [a]: 'Abc-1', [b]: 'x_Y' }))
    expect(aliasSuffixes('Abc-1')).toEqual(['abc-1', 'bc-1', 'c-1'])
    expect(aliasSuffixes('x_Y')).toEqual(['x_y'])
    expect(aliasSuffixes('ab')).toEqual([])
    expect(await ftsHits('url : "one.example"')).toEqual([a])
    expect(await ftsHits('url : "example"')).toEqual([a, b])
    expect(await ftsHits('title : "first"')).toEqual([a])
  })
})

describe('migration 0017', () => {
  beforeEach(() => migrate(db))

  it('marks a link for the indexer only when an update changes the value of its alias, URL or title', async () => {
    const id = await addLink('one', 'https://a.example/', 'Alpha')
    const indexer = new SearchIndexer(db)
    await indexer.drain()
    expect(await pendingIds()).toEqual([])
    const update = (set: Record<string, string | number | null>) =>
      sql`UPDATE links SET ${sql.join(
        Object.entries(set).map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
      )} WHERE id = ${id}`.execute(db.kysely)
    // Every change of value is seen, a null title and a change of case included.
    const changes: Record<string, string | number | null>[] = [
      { title: 'Beta' },
      { url: 'https://b.example/' },
      { alias: 'One' },
      { title: null },
      { title: 'Gamma', clicks: 1 },
    ]
    for (const set of changes) {
      await update(set)
      expect(await pendingIds()).toEqual([id])
      expect(await indexer.drain()).toBe(1)
    }
    // The same values written again, as a client sending the whole form does: nothing to index.
    await update({ alias: 'One', url: 'https://b.example/', title: 'Gamma', clicks: 2 })
    await update({ title: 'Gamma' })
    expect(await pendingIds()).toEqual([])
    expect(await suffixRows()).toEqual(expectedSuffixes({ [id]: 'One' }))
    expect(await ftsHits('url : "b.example"')).toEqual([id])
    expect(await ftsHits('title : "gamma"')).toEqual([id])
    expect(await ftsHits('title : "alpha"')).toEqual([])
  })
})

describe('the indexer', () => {
  beforeEach(() => migrate(db))

  it('moves created, renamed and deleted links into the indexes and empties the pending table', async () => {
    const a = await addLink('one', 'https://a.example/', 'Alpha')
    const b = await addLink('two', 'https://b.example/', 'Beta')
    expect(await pendingIds()).toEqual([a, b])
    expect(await suffixRows()).toEqual([])
    expect(await ftsHits('title : "alpha"')).toEqual([])
    expect(await new SearchIndexer(db).drain()).toBe(2)
    expect(await pendingIds()).toEqual([])
    expect(await suffixRows()).toEqual(expectedSuffixes({ [a]: 'one', [b]: 'two' }))
    expect(await ftsHits('title : "alpha"')).toEqual([a])
    expect(await ftsHits('url : "b.example"')).toEqual([b])

    await sql`UPDATE links SET alias = 'First', title = 'Gamma' WHERE id = ${a}`.execute(db.kysely)
    await sql`UPDATE links SET alias = 'Again' WHERE id = ${a}`.execute(db.kysely)
    await sql`DELETE FROM links WHERE id = ${b}`.execute(db.kysely)
    // A change of a column the index does not hold records nothing.
    await sql`UPDATE links SET clicks = 5 WHERE id = ${a}`.execute(db.kysely)
    expect(await pendingIds()).toEqual([a, b])
    expect(await new SearchIndexer(db).drain()).toBe(2)
    expect(await pendingIds()).toEqual([])
    expect(await suffixRows()).toEqual(expectedSuffixes({ [a]: 'Again' }))
    expect(await ftsHits('title : "alpha"')).toEqual([])
    expect(await ftsHits('title : "gamma"')).toEqual([a])
    expect(await ftsHits('url : "b.example"')).toEqual([])
    expect(await ftsHits('url : "a.example"')).toEqual([a])
  })

  it('takes each pending link once when two processes run it at the same time', async () => {
    const aliases: Record<number, string> = {}
    for (let i = 0; i < 40; i++)
      aliases[await addLink(`l-${i}`, `https://x.example/${i}`, null)] = `l-${i}`
    const other = open()
    try {
      const counts = await Promise.all([
        new SearchIndexer(db, { batch: 3 }).drain(),
        new SearchIndexer(other, { batch: 3 }).drain(),
      ])
      expect(counts[0]! + counts[1]!).toBe(40)
      expect(counts[0]).toBeGreaterThan(0)
      expect(counts[1]).toBeGreaterThan(0)
    } finally {
      await other.close()
    }
    expect(await pendingIds()).toEqual([])
    expect(await suffixRows()).toEqual(expectedSuffixes(aliases))
    expect((await ftsHits('url : "x.example"')).length).toBe(40)
  })

  it('rebuilds both indexes in one pass when the backlog reaches the threshold, and only then', async () => {
    const a = await addLink('kept', 'https://k.example/', 'Kept')
    await new SearchIndexer(db).drain()
    await sql`UPDATE links SET alias = 'renamed', title = 'Other' WHERE id = ${a}`.execute(
      db.kysely,
    )
    const b = await addLink('new-1', 'https://n.example/', null)
    const c = await addLink('new-2', 'https://n.example/2', null)
    expect(await new SearchIndexer(db).rebuildIfBehind(4)).toBe(0)
    expect(await pendingIds()).toEqual([a, b, c])
    expect(await new SearchIndexer(db).rebuildIfBehind(3)).toBe(3)
    expect(await pendingIds()).toEqual([])
    expect(await suffixRows()).toEqual(
      expectedSuffixes({ [a]: 'renamed', [b]: 'new-1', [c]: 'new-2' }),
    )
    expect(await ftsHits('title : "kept"')).toEqual([])
    expect(await ftsHits('title : "other"')).toEqual([a])
    expect(await ftsHits('url : "n.example"')).toEqual([b, c])
  })

  it('indexes the writes it is nudged about, and nothing once stopped', async () => {
    const indexer = new SearchIndexer(db, { debounceMs: 0 })
    const a = await addLink('nudged', 'https://n.example/', null)
    expect(await pendingIds()).toEqual([a])
    indexer.nudge()
    await vi.waitFor(async () => expect(await pendingIds()).toEqual([]))
    expect(await suffixRows()).toEqual(expectedSuffixes({ [a]: 'nudged' }))

    await indexer.stop()
    const b = await addLink('later', 'https://l.example/', null)
    indexer.nudge()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await pendingIds()).toEqual([b])
  })

  it('run elsewhere, hands each debounced nudge over and indexes nothing itself', async () => {
    const indexer = new SearchIndexer(db, { debounceMs: 0 })
    let handedOver = 0
    indexer.runElsewhere(() => handedOver++)
    const a = await addLink('handed', 'https://h.example/', null)
    indexer.start(() => {})
    indexer.nudge()
    await vi.waitFor(() => expect(handedOver).toBe(1))
    // Neither the start nor the nudge indexed here: the link is still pending.
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await pendingIds()).toEqual([a])
    // What the other side runs on that word.
    const there = new SearchIndexer(db)
    there.indexNow()
    await vi.waitFor(async () => expect(await pendingIds()).toEqual([]))
    expect(await suffixRows()).toEqual(expectedSuffixes({ [a]: 'handed' }))
    await indexer.stop()
    await there.stop()
  })

  it("merges a batch's segments after its commit, 4 pages at a time, the event loop turning between the steps", async () => {
    await addLink('merged', 'https://m.example/', 'Merged')
    const steps: string[] = []
    const reader = new SQLite(join(dir, 'search.db'), { readonly: true })
    const committed = () =>
      (reader.prepare('SELECT count(*) AS n FROM links_search_pending').get() as { n: number })
        .n === 0
    const restore = onMerge((pages) =>
      steps.push(`merge ${pages}${committed() ? ', batch committed' : ''}`),
    )
    let turning = true
    const turn = () => {
      steps.push('turn')
      if (turning) setImmediate(turn)
    }
    setImmediate(turn)
    try {
      expect(await new SearchIndexer(db).drain()).toBe(1)
    } finally {
      turning = false
      restore()
      reader.close()
    }
    const merges = steps.filter((step) => step.startsWith('merge'))
    expect(merges).toEqual(Array(4).fill('merge 4, batch committed'))
    // Each step comes after a turn of the event loop that followed the step before.
    const at = steps.map((step, i) => (step.startsWith('merge') ? i : -1)).filter((i) => i >= 0)
    for (let i = 1; i < at.length; i++) expect(steps.slice(at[i - 1]! + 1, at[i])).toContain('turn')
    expect(await ftsHits('title : "merged"')).toHaveLength(1)
  })

  it('owes the merge work of full batches while links are pending, and does it once none is', async () => {
    for (let i = 0; i < 5; i++) await addLink(`owed${i}`, `https://o.example/${i}`, `Owed ${i}`)
    const reader = new SQLite(join(dir, 'search.db'), { readonly: true })
    const pending = () =>
      (reader.prepare('SELECT count(*) AS n FROM links_search_pending').get() as { n: number }).n
    const steps: string[] = []
    const restore = onMerge((pages) => steps.push(`merge ${pages}, ${pending()} pending`))
    try {
      // Batches of 2, 2 and 1: the first two are full and leave links pending.
      expect(await new SearchIndexer(db, { batch: 2 }).drain()).toBe(5)
    } finally {
      restore()
      reader.close()
    }
    // Three batches' work (16 pages each), all of it after the last batch.
    expect(steps).toEqual(Array(12).fill('merge 4, 0 pending'))
    expect(await ftsHits('title : "owed"')).toHaveLength(5)
  })

  it('ends a batch after the link in hand when the request thread waits for the lock, and indexes the rest next', async () => {
    for (let i = 0; i < 5; i++) await addLink(`cut${i}`, `https://u.example/${i}`, `Cut ${i}`)
    // The indexer as the click-writing thread runs it, beside a request thread's turns.
    const turns = new WriteLockTurns()
    shareWriteLock(db.sqlite!, new WriteLockTurns(turns.buffer), 'background')
    const reader = new SQLite(join(dir, 'search.db'), { readonly: true })
    const pending = () =>
      (reader.prepare('SELECT count(*) AS n FROM links_search_pending').get() as { n: number }).n
    // Before each link is marked done: how many the other connection sees pending (committed);
    // before each merge step, the same.
    const seen: number[] = []
    const merges: number[] = []
    const done = 'DELETE FROM links_search_pending WHERE link_id'
    const restore = onStatements(
      { [done]: () => seen.push(pending()), "'merge'": () => merges.push(pending()) },
      {
        // The request thread starts waiting during the second link, and has its turn soon.
        [done]: () => {
          if (seen.length !== 2) return
          turns.waiting(+1)
          setTimeout(() => turns.waiting(-1), 5)
        },
      },
    )
    try {
      expect(await new SearchIndexer(db).drain()).toBe(5)
    } finally {
      restore()
      reader.close()
    }
    // One batch of two, committed, then one of the other three.
    expect(seen).toEqual([5, 5, 3, 3, 3])
    // The merge work of both batches, once nothing is pending.
    expect(merges).toEqual(Array(8).fill(0))
    expect(await pendingIds()).toEqual([])
    expect(await ftsHits('title : "cut"')).toHaveLength(5)
    expect(await suffixRows()).toEqual(
      expectedSuffixes(Object.fromEntries([1, 2, 3, 4, 5].map((id) => [id, `cut${id - 1}`]))),
    )
  })

  it(`owes at most ${MERGE_DEBT_MAX} pages of merge work however long the backlog`, async () => {
    for (let i = 0; i < 3; i++) await addLink(`cap${i}`, `https://c.example/${i}`, `Cap ${i}`)
    let pages = 0
    const restore = onMerge((step) => (pages += step))
    try {
      // Three batches owing 1,000 pages each.
      expect(await new SearchIndexer(db, { batch: 1, mergePages: 1000 }).drain()).toBe(3)
    } finally {
      restore()
    }
    expect(pages).toBe(MERGE_DEBT_MAX)
  })
})
