/**
 * A served process's search index is kept by the database in the write's own transaction
 * (migration 0020): once the API has answered a write, the FTS5 trigram index holds the link as
 * written, and a search finds it by what it holds now.
 */
import SQLite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from '../support/server.js'

/** Whether the served file's search index holds link `id` with `title` and with `alias`. */
function indexed(dbPath: string, id: number, alias: string, title: string) {
  const db = new SQLite(dbPath, { readonly: true })
  try {
    const one = (query: string) =>
      (
        db
          .prepare(
            `SELECT count(*) AS n FROM links_search WHERE links_search MATCH ? AND rowid = ?`,
          )
          .get(query, id) as { n: number }
      ).n
    return { alias: one(`alias : "${alias}"`), title: one(`title : "${title}"`) }
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

  it('has the links the API writes in its search index as each write is answered', async () => {
    const created = await server.api('POST', '/links', {
      url: 'https://shop.example/autumn',
      alias: 'Fall-Sale-7',
      title: 'Autumn deals',
    })
    expect(created.status).toBe(201)
    const id = (created.json as { data: { id: number } }).data.id
    expect(indexed(server.dbPath, id, 'll-sale', 'Autumn')).toEqual({ alias: 1, title: 1 })
    const found = await server.api('GET', '/links?search=ll-sale&search_by=alias')
    expect(found.status).toBe(200)
    expect((found.json as { data: { alias: string }[] }).data.map((l) => l.alias)).toEqual([
      'Fall-Sale-7',
    ])

    const updated = await server.api('PUT', `/links/${id}`, { title: 'Winter deals' })
    expect(updated.status).toBe(200)
    expect(indexed(server.dbPath, id, 'll-sale', 'Autumn')).toEqual({ alias: 1, title: 0 })
    expect(indexed(server.dbPath, id, 'll-sale', 'Winter')).toEqual({ alias: 1, title: 1 })
    const byTitle = await server.api('GET', '/links?search=winter&search_by=title')
    expect((byTitle.json as { meta: { total: number } }).meta.total).toBe(1)

    expect((await server.api('DELETE', `/links/${id}`)).status).toBe(200)
    expect(indexed(server.dbPath, id, 'll-sale', 'Winter')).toEqual({ alias: 0, title: 0 })
  })
})
