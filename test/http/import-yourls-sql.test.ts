import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'

let t: TestApp | undefined
afterEach(async () => {
  await t?.services.imports.idle()
  await t?.close()
  t = undefined
})

const DUMP = readFileSync(
  fileURLToPath(new URL('../imports/fixtures/yourls-mysqldump.sql', import.meta.url)),
)

function upload(app: TestApp, name: string, content: Buffer) {
  const boundary = '----slink-sql-boundary'
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="source"\r\n\r\nyourls\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        'Content-Type: application/sql\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return app.app.inject({
    method: 'POST',
    url: '/api/v1/imports',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: 'Bearer test-key-user-a-0123456789',
    },
    payload,
  })
}

describe('POST /api/v1/imports with a YOURLS .sql dump', () => {
  it('creates the links of the URL table, with the logged clicks on their days and the rest on the import day', async () => {
    t = await createTestApp()
    const res = await upload(t, 'yourls.sql', DUMP)
    expect(res.statusCode, res.body).toBe(202)
    await t.services.imports.idle()
    const shown = (await t.call('GET', `/api/v1/imports/${res.json().data.id}`)).json().data
    expect(shown).toMatchObject({
      status: 'done',
      total: 3,
      counts: { created: 2, renamed: 0, skipped: 1, duplicate: 0, invalid: 0, unknown_domain: 0 },
      error: null,
    })
    const rows = (await t.call('GET', `/api/v1/imports/${res.json().data.id}/rows`)).json().data
    expect(
      rows.map((r: { alias: string; outcome: string; message: string | null }) => [
        r.alias,
        r.outcome,
        r.message,
      ]),
    ).toEqual([
      ['docs', 'skipped', 'The alias is reserved.'],
      ['gh', 'created', null],
      ['nul', 'created', null],
    ])
    const links = await t.services.db.kysely
      .selectFrom('links')
      .select(['id', 'alias', 'url', 'title', 'clicks', 'created_at'])
      .where('user_id', '=', t.userA)
      .orderBy('alias')
      .execute()
    expect(links.map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        alias: 'gh',
        url: 'https://github.com/',
        title: "GitHub \\ Let's build from here 🚀",
        clicks: 42,
        created_at: Date.parse('2019-04-02T12:30:00Z'),
      },
      {
        alias: 'nul',
        url: 'https://example.com/no-title',
        title: null,
        clicks: 0,
        created_at: Date.parse('2021-07-01T00:00:00Z'),
      },
    ])
    const today = new Date().toISOString().slice(0, 10)
    const stats = await t.services.db.kysely
      .selectFrom('click_stats')
      .select(['dimension', 'day', 'clicks'])
      .where('link_id', '=', links[0]!.id)
      .orderBy('dimension')
      .orderBy('day')
      .execute()
    expect(stats).toEqual([
      { dimension: 'imported', day: '2023-03-01', clicks: 1 },
      { dimension: 'imported', day: '2023-03-02', clicks: 2 },
      { dimension: 'imported', day: today, clicks: 39 },
      { dimension: 'total', day: '2023-03-01', clicks: 1 },
      { dimension: 'total', day: '2023-03-02', clicks: 2 },
      { dimension: 'total', day: today, clicks: 39 },
    ])
    const period = await t.call(
      'GET',
      `/api/v1/stats/${links[0]!.id}?name=clicks&from=2023-03-01&to=2023-03-02`,
    )
    expect(period.statusCode).toBe(200)
    // The API orders a period's days by count.
    expect(period.json().data).toEqual([
      { value: '2023-03-02', count: 2 },
      { value: '2023-03-01', count: 1 },
    ])
  })
})
