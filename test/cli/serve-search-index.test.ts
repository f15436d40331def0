/**
 * A served process indexes its links for search in its click-writing thread, off the request
 * thread (links/search-indexer.ts, threads/click-writer.ts): the links an API call writes
 * leave the pending list, the indexes hold them, and a search finds them by what was indexed.
 */
import SQLite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually, startServer, type TestServer } from '../support/server.js'

/** What the served file holds for the search: pending links, and the indexed alias and title. */
function indexed(dbPath: string, id: number) {
  const db = new SQLite(dbPath, { readonly: true })
  try {
    const one = (query: string, ...values: unknown[]) =>
      (db.prepare(query).get(...values) as { n: number }).n
    return {
      pending: one('SELECT count(*) AS n FROM links_search_pending'),
      suffixes: one('SELECT count(*) AS n FROM links_search_suffixes WHERE link_id = ?', id),
      titles: one(
        'SELECT count(*) AS n FROM links_search WHERE links_search MATCH \'title:"Autumn"\' AND rowid = ?',
        id,
      ),
    }
  } finally {
    db.close()
  }
}

describe('a served process', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(async () => {
    expect(await server.stop()).toBe(0)
  })

  it('indexes the links the API writes, in its click-writing thread', async () => {
    const created = await server.api('POST', '/links', {
      url: 'https://shop.example/autumn',
      alias: 'Fall-Sale-7',
      title: 'Autumn deals',
    })
    expect(created.status).toBe(201)
    const id = (created.json as { data: { id: number } }).data.id
    // The write leaves the link pending; only the indexer's batch (half a second after the
    // write, or a sweep) writes its suffix rows and its title's trigrams.
    const done = await eventually(
      async () => indexed(server.dbPath, id),
      (state) => state.pending === 0,
      5000,
    )
    expect(done).toEqual({ pending: 0, suffixes: 'fall-sale-7'.length - 2, titles: 1 })

    const found = await server.api('GET', '/links?search=ll-sale&search_by=alias')
    expect(found.status).toBe(200)
    expect((found.json as { data: { alias: string }[] }).data.map((l) => l.alias)).toEqual([
      'Fall-Sale-7',
    ])
    const byTitle = await server.api('GET', '/links?search=autumn&search_by=title')
    expect((byTitle.json as { meta: { total: number } }).meta.total).toBe(1)
  })
})
