import { afterEach, describe, expect, it } from 'vitest'
import { readCsv } from '../../src/imports/sources/csv.js'
import { createTestApp, type TestApp } from '../support/app.js'

const apps: TestApp[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) {
    await app.services.imports.idle()
    await app.close()
  }
})

async function appWithLinks(): Promise<TestApp> {
  const t = await createTestApp()
  apps.push(t)
  const space = await t.call('POST', '/api/v1/spaces', { form: { name: 'Work', color: 2 } })
  expect(space.statusCode).toBe(201)
  const made: Record<string, string | number>[] = [
    {
      url: 'https://example.com/a?x=1,2',
      alias: 'first',
      title: "=cmd|' /C calc'!A0",
      space_id: space.json().data.id as number,
      expiration_date: '2030-05-06',
      expiration_time: '07:08',
      expiration_clicks: 10,
      password: 'secret',
      'tags[0]': 'Work b',
      'tags[1]': '=Sum',
    },
    { url: 'https://example.com/b', alias: '-dash', title: 'Plain, "quoted"' },
    { url: 'https://example.com/c', alias: 'third', disabled: 1 },
  ]
  for (const form of made) {
    const res = await t.call('POST', '/api/v1/links', { form })
    expect(res.statusCode, res.body).toBe(201)
  }
  await t.services.db.kysely
    .updateTable('links')
    .set({ clicks: 5 })
    .where('alias', '=', 'first')
    .execute()
  return t
}

describe('GET /api/v1/links/export', () => {
  it('streams CSV with the csv source columns, formulas defused and no password', async () => {
    const t = await appWithLinks()
    const res = await t.call('GET', '/api/v1/links/export?format=csv')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="links-\d{4}-\d{2}-\d{2}\.csv"$/,
    )
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n')
    expect(lines[0]).toBe(
      'url,alias,title,space,domain,created_at,clicks,password,expiration_date,expiration_time,expiration_clicks,short_url,disabled,id,tags',
    )
    const ids = await t.services.db.kysely
      .selectFrom('links')
      .select(['id', 'created_at'])
      .orderBy('id')
      .execute()
    const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z')
    expect(lines.slice(1)).toEqual([
      `"https://example.com/a?x=1,2",first,'=cmd|' /C calc'!A0,Work,short.test,${iso(ids[0]!.created_at)},5,,2030-05-06,07:08,10,http://short.test/first,0,${ids[0]!.id},'=Sum|Work b`,
      `https://example.com/b,'-dash,"Plain, ""quoted""",,short.test,${iso(ids[1]!.created_at)},0,,,,,http://short.test/-dash,0,${ids[1]!.id},`,
      `https://example.com/c,third,,,short.test,${iso(ids[2]!.created_at)},0,,,,,http://short.test/third,1,${ids[2]!.id},`,
    ])
  })

  it('takes the list filters, and JSON gives the records the list gives', async () => {
    const t = await appWithLinks()
    const json = await t.call(
      'GET',
      '/api/v1/links/export?format=json&status=1&search=example.com/b&search_by=url',
    )
    expect(json.statusCode).toBe(200)
    const list = await t.call('GET', '/api/v1/links?status=1&search=example.com/b&search_by=url')
    expect(json.json()).toEqual({ data: list.json().data, status: 200 })
    expect(json.json().data.map((l: { alias: string }) => l.alias)).toEqual(['-dash'])
    const disabled = await t.call('GET', '/api/v1/links/export?status=3')
    expect(disabled.body.trimEnd().split('\n').length).toBe(2)
  })

  it('answers invalid filters with 422 and no key with 401', async () => {
    const t = await appWithLinks()
    const bad = await t.call('GET', '/api/v1/links/export?format=xml&status=9')
    expect(bad.statusCode).toBe(422)
    expect(Object.keys(bad.json().message).sort()).toEqual(['format', 'status'])
    const anonymous = await t.call('GET', '/api/v1/links/export', { key: null })
    expect(anonymous.statusCode).toBe(401)
  })

  it("another user's links are never exported", async () => {
    const t = await appWithLinks()
    const other = await t.call('GET', '/api/v1/links/export', { key: 'test-key-user-b-0123456789' })
    expect(
      other.body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\n'),
    ).toHaveLength(1)
  })

  it('reads back through the csv source into another instance: aliases, titles, spaces, tags, clicks, dates, expiry', async () => {
    const source = await appWithLinks()
    const csv = (await source.call('GET', '/api/v1/links/export')).rawPayload
    const rows = []
    for await (const row of readCsv(
      (async function* () {
        yield csv
      })(),
    ))
      rows.push(row)
    expect(rows.map((r) => r.problem)).toEqual([null, null, null])

    const target = await createTestApp()
    apps.push(target)
    const record = await target.services.imports.begin(target.userA, {
      source: 'csv',
      origin: 'export.csv',
      scope: 'csv',
      dryRun: false,
      onConflict: 'skip',
    })
    const summary = await target.services.imports.run(
      record,
      'csv',
      (async function* () {
        yield* rows
      })(),
      target.defaultDomainId,
    )
    expect(summary.counts.created).toBe(3)
    const pick = (l: Record<string, unknown>) => ({
      alias: l.alias,
      url: l.url,
      title: l.title,
      clicks: l.clicks,
      space: (l.space as { name: string } | null)?.name ?? null,
      ends_at: l.ends_at,
      expiration_clicks: l.expiration_clicks,
      disabled: l.disabled,
      created_at: l.created_at,
      tags: l.tags,
    })
    const before = (await source.call('GET', '/api/v1/links?sort=asc')).json().data.map(pick)
    const after = (await target.call('GET', '/api/v1/links?sort=asc')).json().data.map(pick)
    expect(after).toEqual(before)
    expect(after[0].tags).toEqual(['=Sum', 'Work b'])
  })
})
