import { afterEach, describe, expect, it } from 'vitest'
import { FILE_SOURCES, type FileSource } from '../../src/imports/sources/index.js'
import type { SourceRow } from '../../src/imports/row.js'
import { createTestApp, type TestApp } from '../support/app.js'

const apps: TestApp[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) {
    await app.services.imports.idle()
    await app.close()
  }
})

async function imported(source: FileSource, text: string) {
  const app = await createTestApp()
  apps.push(app)
  const rows: SourceRow[] = []
  for await (const row of FILE_SOURCES[source](
    (async function* () {
      yield Buffer.from(text)
    })(),
  ))
    rows.push(row)
  const record = await app.services.imports.begin(app.userA, {
    source,
    origin: `export.${source}`,
    scope: source,
    dryRun: false,
    onConflict: 'skip',
  })
  const summary = await app.services.imports.run(
    record,
    source,
    (async function* () {
      yield* rows
    })(),
    app.defaultDomainId,
  )
  const links = (await app.call('GET', '/api/v1/links?sort=asc&sort_by=alias')).json().data as {
    alias: string
    tags: string[]
  }[]
  const tags = (await app.call('GET', '/api/v1/tags?sort_by=name&sort=asc')).json().data as {
    name: string
    links: number
  }[]
  return {
    created: summary.counts.created,
    links: links.map((l) => ({ alias: l.alias, tags: l.tags })),
    tags: tags.map((t) => ({ name: t.name, links: t.links })),
  }
}

describe('an import brings its links tags along into the account', () => {
  it("Shlink's CSV export: names joined by |, one tag for each name ignoring case", async () => {
    const csv =
      'createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits\n' +
      '2024-03-01T10:00:00+00:00,,spring,http://short.test/spring,https://example.com/spring,Spring,news|Launch,3\n' +
      '2024-03-02T10:00:00+00:00,,summer,http://short.test/summer,https://example.com/summer,Summer,launch| news |,0\n' +
      '2024-03-03T10:00:00+00:00,,plain,http://short.test/plain,https://example.com/plain,Plain,,0\n'
    expect(await imported('shlink-csv', csv)).toEqual({
      created: 3,
      links: [
        { alias: 'plain', tags: [] },
        { alias: 'spring', tags: ['Launch', 'news'] },
        { alias: 'summer', tags: ['Launch', 'news'] },
      ],
      tags: [
        { name: 'Launch', links: 2 },
        { name: 'news', links: 2 },
      ],
    })
  })

  it("Dub's JSON export: each link's tags objects", async () => {
    const json = JSON.stringify([
      {
        key: 'promo',
        domain: 'dub.sh',
        url: 'https://example.com/promo',
        createdAt: '2025-01-05T08:00:00.000Z',
        clicks: 4,
        tags: [
          { id: 'tag_1', name: 'Campaign', color: 'blue' },
          { id: 'tag_2', name: 'Q1', color: 'red' },
        ],
      },
      { key: 'bare', domain: 'dub.sh', url: 'https://example.com/bare', tags: [] },
    ])
    expect(await imported('dub', json)).toEqual({
      created: 2,
      links: [
        { alias: 'bare', tags: [] },
        { alias: 'promo', tags: ['Campaign', 'Q1'] },
      ],
      tags: [
        { name: 'Campaign', links: 1 },
        { name: 'Q1', links: 1 },
      ],
    })
  })
})
