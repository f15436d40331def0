import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readCsv } from '../../src/imports/sources/csv.js'
import type { SourceRow } from '../../src/imports/row.js'
import { createTestApp, type TestApp } from '../support/app.js'

async function* bytes(text: string | Buffer): AsyncGenerator<Buffer> {
  yield Buffer.from(text)
}

let t: TestApp
beforeEach(async () => {
  t = await createTestApp()
})
afterEach(async () => {
  await t.close()
})

async function importCsv(
  csv: string,
  options: {
    dryRun?: boolean
    onConflict?: 'skip' | 'rename'
    userId?: number
    batchSize?: number
  } = {},
) {
  const record = await t.services.imports.begin(options.userId ?? t.userA, {
    source: 'csv',
    origin: 'links.csv',
    scope: 'csv',
    dryRun: options.dryRun ?? false,
    onConflict: options.onConflict ?? 'skip',
  })
  const summary = await t.services.imports.run(
    record,
    'csv',
    readCsv(bytes(csv)),
    t.defaultDomainId,
    {
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    },
  )
  const rows = await t.services.imports.rows(record.user_id, record.id, 1, 100)
  return { record, summary, rows: rows.rows.map((r) => [r.line, r.outcome, r.alias, r.message]) }
}

async function links(userId = t.userA) {
  return t.services.db.kysely
    .selectFrom('links')
    .select(['alias', 'url', 'title', 'clicks', 'created_at', 'user_id', 'space_id'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute()
}

const CSV = [
  'url,alias,title,created_at,clicks',
  'https://example.com/a,first,First,2024-03-01T10:00:00Z,12',
  'https://example.com/b,,No alias,,0',
  'javascript:alert(1),bad,Unsafe,,',
  'https://example.com/c,has space,Bad alias,,',
  'https://example.com/d,api,Reserved,,',
].join('\n')

describe('import core', () => {
  it('plans every row and creates the links with their original alias, date and clicks', async () => {
    const { summary, rows } = await importCsv(CSV)
    expect(summary).toEqual({
      status: 'done',
      counts: { created: 2, renamed: 0, skipped: 1, duplicate: 0, invalid: 2, unknown_domain: 0 },
      error: null,
    })
    expect(rows[0]).toEqual([1, 'created', 'first', null])
    expect(rows[1]![1]).toBe('created')
    expect(rows[2]).toEqual([
      3,
      'invalid',
      'bad',
      'The url field must be a valid http or https URL.',
    ])
    expect(rows[3]).toEqual([
      4,
      'invalid',
      'has space',
      'The alias field must only contain letters, numbers, dashes, and underscores.',
    ])
    expect(rows[4]).toEqual([5, 'skipped', 'api', 'The alias is reserved.'])
    const made = await links()
    expect(made).toHaveLength(2)
    expect(made[0]).toEqual({
      alias: 'first',
      url: 'https://example.com/a',
      title: 'First',
      clicks: 12,
      created_at: Date.parse('2024-03-01T10:00:00Z'),
      user_id: t.userA,
      space_id: null,
    })
    expect(made[1]!.alias).toMatch(/^[2-9a-zA-Z]{6}$/)
  })

  it('imported clicks show in the statistics as a total and as imported on the import day', async () => {
    await importCsv(CSV)
    const [link] = await links()
    const id = (
      await t.services.db.kysely
        .selectFrom('links')
        .select('id')
        .where('alias', '=', 'first')
        .executeTakeFirstOrThrow()
    ).id
    const stats = await t.services.db.kysely
      .selectFrom('click_stats')
      .select(['dimension', 'day', 'value', 'clicks'])
      .where('link_id', '=', id)
      .orderBy('dimension')
      .execute()
    const today = new Date().toISOString().slice(0, 10)
    expect(link!.clicks).toBe(12)
    expect(stats).toEqual([
      { dimension: 'imported', day: today, value: '', clicks: 12 },
      { dimension: 'total', day: today, value: '', clicks: 12 },
    ])
    const read = async (name: string) =>
      (await t.call('GET', `/api/v1/stats/${id}?name=${name}`)).json().data
    expect(await read('imported')).toEqual([{ value: today, count: 12 }])
    expect(await read('clicks')).toEqual([{ value: today, count: 12 }])
    expect(await read('country')).toEqual([])
  })

  it('each created link raises link.created for the webhooks, as a link made through the API does', async () => {
    const hook = await t.call('POST', '/api/v1/webhooks', {
      json: { url: 'https://hooks.example.com/in', events: ['link.created'] },
    })
    expect(hook.statusCode, hook.body).toBe(201)
    await importCsv(CSV)
    const outbox = await t.services.db.kysely
      .selectFrom('webhook_outbox')
      .select(['type', 'payload'])
      .orderBy('id')
      .execute()
    expect(outbox.map((d) => [d.type, JSON.parse(d.payload).data.link.url])).toEqual([
      ['link.created', 'https://example.com/a'],
      ['link.created', 'https://example.com/b'],
    ])
  })

  it('a dry run reports the same outcomes and writes no link', async () => {
    const { summary, record } = await importCsv(CSV, { dryRun: true })
    expect(summary.counts).toEqual({
      created: 2,
      renamed: 0,
      skipped: 1,
      duplicate: 0,
      invalid: 2,
      unknown_domain: 0,
    })
    expect(await links()).toEqual([])
    expect((await t.services.imports.get(t.userA, record.id)).dry_run).toBe(1)
  })

  it('a dry run remembers what earlier batches planned (from its report, not memory): the same outcomes as the real run', async () => {
    const made = await t.call('POST', '/api/v1/links', {
      form: { url: 'https://example.com/0', alias: 'taken' },
    })
    expect(made.statusCode).toBe(201)
    const csv = [
      'url,alias',
      'https://example.com/1,taken',
      'https://example.com/2,other',
      'https://example.com/3,taken-2',
      'https://example.com/4,',
      'https://example.com/5,other',
      'https://example.com/4,',
    ].join('\n')
    const expected = [
      [1, 'renamed', 'taken-2', 'The alias taken has already been taken.'],
      [2, 'created', 'other', null],
      [3, 'renamed', 'taken-2-2', 'The alias taken-2 has already been taken.'],
      [4, 'created', expect.any(String), null],
      [5, 'duplicate', 'other', 'Imported before.'],
      [6, 'duplicate', null, 'Imported before.'],
    ]
    const dry = await importCsv(csv, { dryRun: true, onConflict: 'rename', batchSize: 2 })
    expect(dry.rows).toEqual(expected)
    expect(await links()).toHaveLength(1)
    const real = await importCsv(csv, { onConflict: 'rename', batchSize: 2 })
    expect(real.rows).toEqual(expected)
    expect((await links()).map((l) => l.url)).toEqual([
      'https://example.com/0',
      'https://example.com/1',
      'https://example.com/2',
      'https://example.com/3',
      'https://example.com/4',
    ])
  })

  it('running the same import twice creates nothing twice', async () => {
    await importCsv(CSV)
    expect(await links()).toHaveLength(2)
    const again = await importCsv(CSV)
    expect(again.summary.counts).toEqual({
      created: 0,
      renamed: 0,
      skipped: 1,
      duplicate: 2,
      invalid: 2,
      unknown_domain: 0,
    })
    expect(await links()).toHaveLength(2)
  })

  it('an alias taken by another link is skipped or renamed as asked', async () => {
    await t.call('POST', '/api/v1/links', {
      form: { url: 'https://other.example/', alias: 'first' },
    })
    const skipped = await importCsv('url,alias\nhttps://example.com/a,first\n')
    expect(skipped.rows).toEqual([[1, 'skipped', 'first', 'The alias has already been taken.']])
    const renamed = await importCsv(
      'url,alias\nhttps://example.com/a,first\nhttps://example.com/b,first-2\n',
      {
        onConflict: 'rename',
      },
    )
    expect(renamed.rows).toEqual([
      [1, 'renamed', 'first-2', 'The alias first has already been taken.'],
      [2, 'renamed', 'first-2-2', 'The alias first-2 has already been taken.'],
    ])
  })

  it('an unknown domain, or another user\u2019s domain, is reported and nothing is written there', async () => {
    const other = await t.services.domains.create(t.userB, { name: 'bob.example' })
    const { rows } = await importCsv(
      'url,alias,domain\nhttps://example.com/a,x1,nowhere.example\nhttps://example.com/b,x2,bob.example\nhttps://example.com/c,x3,short.test\n',
    )
    expect(rows).toEqual([
      [1, 'unknown_domain', 'x1', 'nowhere.example is not a domain of yours.'],
      [2, 'unknown_domain', 'x2', 'bob.example is not a domain of yours.'],
      [3, 'created', 'x3', null],
    ])
    const onBob = await t.services.db.kysely
      .selectFrom('links')
      .select('id')
      .where('domain_id', '=', other.id)
      .execute()
    expect(onBob).toEqual([])
    expect((await links(t.userB)).length).toBe(0)
  })

  it('spaces are found or made in the owner\u2019s account only', async () => {
    const bobs = await t.services.spaces.create(t.userB, { name: 'Work', color: 2 })
    await importCsv('url,alias,space\nhttps://example.com/a,s1,Work\n')
    const [made] = await links()
    expect(made!.space_id).not.toBe(null)
    expect(made!.space_id).not.toBe(bobs.id)
    const space = await t.services.db.kysely
      .selectFrom('spaces')
      .selectAll()
      .where('id', '=', made!.space_id!)
      .executeTakeFirstOrThrow()
    expect([space.user_id, space.name]).toEqual([t.userA, 'Work'])
  })

  it('a fatal error stops the import: written batches stay and are reported, a re-run completes it', async () => {
    async function* failing(): AsyncGenerator<SourceRow> {
      let n = 0
      for await (const row of readCsv(
        bytes(
          ['url', ...Array.from({ length: 5 }, (_, i) => `https://example.com/${i}`)].join('\n'),
        ),
      )) {
        if (++n === 4) throw new Error('connection reset')
        yield row
      }
    }
    const record = await t.services.imports.begin(t.userA, {
      source: 'csv',
      origin: 'x',
      scope: 'csv',
      dryRun: false,
      onConflict: 'skip',
    })
    const summary = await t.services.imports.run(record, 'csv', failing(), t.defaultDomainId, {
      batchSize: 2,
    })
    expect(summary).toEqual({
      status: 'failed',
      counts: { created: 2, renamed: 0, skipped: 0, duplicate: 0, invalid: 0, unknown_domain: 0 },
      error: 'connection reset',
    })
    const stored = await t.services.imports.get(t.userA, record.id)
    expect([stored.status, stored.created, stored.total, stored.error]).toEqual([
      'failed',
      2,
      2,
      'connection reset',
    ])
    expect((await links()).map((l) => l.url)).toEqual([
      'https://example.com/0',
      'https://example.com/1',
    ])

    const again = await importCsv(
      ['url', ...Array.from({ length: 5 }, (_, i) => `https://example.com/${i}`)].join('\n'),
    )
    expect(again.summary.counts).toEqual({
      created: 3,
      renamed: 0,
      skipped: 0,
      duplicate: 2,
      invalid: 0,
      unknown_domain: 0,
    })
    expect(await links()).toHaveLength(5)
  })

  it('a batch that fails to write leaves none of its rows', async () => {
    const record = await t.services.imports.begin(t.userA, {
      source: 'csv',
      origin: 'x',
      scope: 'csv',
      dryRun: false,
      onConflict: 'skip',
    })
    const rows = readCsv(bytes('url,alias\nhttps://example.com/a,ok1\nhttps://example.com/b,ok2\n'))
    // The keys' table gone: the batch's links are inserted, then its keys fail.
    await t.services.db.kysely.schema.dropTable('import_keys').execute()
    const summary = await t.services.imports.run(record, 'csv', rows, t.defaultDomainId)
    expect(summary.status).toBe('failed')
    expect(await links()).toEqual([])
  })
})
