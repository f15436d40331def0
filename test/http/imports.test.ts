import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { PHPSHORT_LINKS, phpShortApi, shlinkApi, sourceApi } from '../support/source-apis.js'

let t: TestApp | undefined
afterEach(async () => {
  await t?.services.imports.idle()
  await t?.close()
  t = undefined
})

const BOUNDARY = '----slink-test-boundary'

function multipart(
  fields: Record<string, string>,
  file?: { name: string; content: string | Buffer },
): { payload: Buffer; headers: Record<string, string> } {
  const parts: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    )
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    )
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`))
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  }
}

async function post(
  app: TestApp,
  fields: Record<string, string>,
  file?: { name: string; content: string | Buffer },
  key?: string,
) {
  const body = multipart(fields, file)
  return app.app.inject({
    method: 'POST',
    url: '/api/v1/imports',
    headers: { ...body.headers, authorization: `Bearer ${key ?? 'test-key-user-a-0123456789'}` },
    payload: body.payload,
  })
}

const CSV = 'url,alias,clicks\nhttps://example.com/a,imp-a,4\njavascript:alert(1),imp-b,\n'
const COUNTS = { created: 1, renamed: 0, skipped: 0, duplicate: 0, invalid: 1, unknown_domain: 0 }

describe('POST /api/v1/imports', () => {
  it('answers 202 with the import at once, runs it, and reports counts and every row', async () => {
    t = await createTestApp()
    const res = await post(t, { source: 'csv' }, { name: 'links.csv', content: CSV })
    expect(res.statusCode, res.body).toBe(202)
    const started = res.json()
    expect(started).toMatchObject({
      data: {
        source: 'csv',
        origin: 'links.csv',
        status: 'queued',
        dry_run: false,
        on_conflict: 'skip',
        total: 0,
        error: null,
        finished_at: null,
      },
      status: 200,
    })
    await t.services.imports.idle()
    const shown = await t.call('GET', `/api/v1/imports/${started.data.id}`)
    expect(shown.statusCode).toBe(200)
    expect(shown.json().data).toMatchObject({
      id: started.data.id,
      status: 'done',
      total: 2,
      counts: COUNTS,
      error: null,
    })
    const rows = await t.call('GET', `/api/v1/imports/${started.data.id}/rows`)
    expect(rows.statusCode).toBe(200)
    const link = await t.services.db.kysely
      .selectFrom('links')
      .select('id')
      .where('alias', '=', 'imp-a')
      .executeTakeFirstOrThrow()
    expect(rows.json().data).toEqual([
      {
        line: 1,
        outcome: 'created',
        source_key: '/imp-a',
        alias: 'imp-a',
        link_id: link.id,
        message: null,
      },
      {
        line: 2,
        outcome: 'invalid',
        source_key: '/imp-b',
        alias: 'imp-b',
        link_id: null,
        message: 'The url field must be a valid http or https URL.',
      },
    ])
    expect(rows.json().meta).toMatchObject({ current_page: 1, total: 2, per_page: 10 })
    const invalid = await t.call('GET', `/api/v1/imports/${started.data.id}/rows?outcome=invalid`)
    expect(invalid.json().data.map((r: { line: number }) => r.line)).toEqual([2])
  })

  it('a dry run writes no link', async () => {
    t = await createTestApp()
    const res = await post(t, { source: 'csv', dry_run: '1' }, { name: 'links.csv', content: CSV })
    expect(res.statusCode).toBe(202)
    await t.services.imports.idle()
    const shown = await t.call('GET', `/api/v1/imports/${res.json().data.id}`)
    expect(shown.json().data).toMatchObject({ status: 'done', dry_run: true, counts: COUNTS })
    expect(await t.services.db.kysely.selectFrom('links').select('id').execute()).toEqual([])
  })

  it('reports every missing or wrong field at once (422)', async () => {
    t = await createTestApp()
    const none = await post(t, {})
    expect([none.statusCode, none.json()]).toEqual([
      422,
      { message: { source: ['The source field is required.'] }, status: 422 },
    ])
    const file = await post(t, { source: 'csv', on_conflict: 'merge' })
    expect(file.statusCode).toBe(422)
    expect(Object.keys(file.json().message).sort()).toEqual(['file', 'on_conflict'])
    expect(file.json().message.file).toEqual(['The file field is required when source is csv.'])
    const api = await post(t, { source: 'shlink' })
    expect(api.json()).toEqual({
      message: {
        url: ['The url field is required when source is shlink.'],
        key: ['The key field is required when source is shlink.'],
      },
      status: 422,
    })
    const bad = await post(t, { source: 'nope' })
    expect([bad.statusCode, Object.keys(bad.json().message)]).toEqual([422, ['source']])
  })

  it("another user's import answers like a missing one", async () => {
    t = await createTestApp()
    const res = await post(t, { source: 'csv' }, { name: 'links.csv', content: CSV })
    const id = res.json().data.id
    await t.services.imports.idle()
    const notFound = { message: 'Resource not found.', status: 404 }
    for (const path of [
      `/api/v1/imports/${id}`,
      `/api/v1/imports/${id}/rows`,
      '/api/v1/imports/abc',
      `/api/v1/imports/${id + 1}`,
    ]) {
      const other = await t.call('GET', path, {
        key: path.includes(String(id)) ? KEY_B : undefined,
      })
      expect([path, other.statusCode, other.json()]).toEqual([path, 404, notFound])
    }
  })

  it('a file over 50 MiB is a 413, and nothing is imported', async () => {
    t = await createTestApp()
    const big = Buffer.alloc(50 * 1024 * 1024 + 10, 'a')
    const res = await post(t, { source: 'csv' }, { name: 'big.csv', content: big })
    expect([res.statusCode, res.json()]).toEqual([
      413,
      { message: 'Payload Too Large.', status: 413 },
    ])
    expect(await t.services.db.kysely.selectFrom('imports').select('id').execute()).toEqual([])
  })

  it('a binary file is reported row by row, never a 5xx', async () => {
    t = await createTestApp()
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))
    const res = await post(t, { source: 'csv' }, { name: 'x.bin', content: bytes })
    expect(res.statusCode).toBe(202)
    await t.services.imports.idle()
    const shown = (await t.call('GET', `/api/v1/imports/${res.json().data.id}`)).json().data
    expect(shown.status).toBe('done')
    expect(shown.counts.created).toBe(0)
  })

  it('an API source on a private address is refused unless IMPORT_ALLOWED_HOSTS names it', async () => {
    const api = await sourceApi(shlinkApi('shlink-key'))
    try {
      t = await createTestApp()
      const refused = await post(t, { source: 'shlink', url: api.url, key: 'shlink-key' })
      expect(refused.statusCode).toBe(202)
      await t.services.imports.idle()
      expect(
        (await t.call('GET', `/api/v1/imports/${refused.json().data.id}`)).json().data,
      ).toMatchObject({
        status: 'failed',
        total: 0,
        error: '127.0.0.1 is not reachable: private or local address (IMPORT_ALLOWED_HOSTS)',
      })
      expect(api.requests).toEqual([])
      await t.close()

      t = await createTestApp({ IMPORT_ALLOWED_HOSTS: '127.0.0.1' })
      const allowed = await post(t, { source: 'shlink', url: api.url, key: 'shlink-key' })
      await t.services.imports.idle()
      expect(
        (await t.call('GET', `/api/v1/imports/${allowed.json().data.id}`)).json().data,
      ).toMatchObject({
        status: 'done',
        counts: { created: 1, renamed: 0, skipped: 0, duplicate: 0, invalid: 0, unknown_domain: 1 },
      })
    } finally {
      await api.close()
    }
  })

  it('phpshort: targeting, privacy, expiry URL and pixels come over; pixels are matched by type and value, never made twice', async () => {
    const badTargeting = {
      ...PHPSHORT_LINKS[1],
      id: 13,
      alias: 'broken',
      country_target: [{ key: 'XX', value: 'https://example.com/x' }],
      rotation_target: [{ value: 'javascript:alert(1)' }],
      pixels: [],
    }
    const api = await sourceApi(phpShortApi('php-key', [...PHPSHORT_LINKS, badTargeting]))
    try {
      t = await createTestApp({ IMPORT_ALLOWED_HOSTS: '127.0.0.1' })
      expect(
        (await t.call('POST', '/api/v1/domains', { form: { name: 'old.example' } })).statusCode,
      ).toBe(201)
      // The same facebook pixel under another name is reused; "Ads" is taken by another pixel.
      const fb = await t.call('POST', '/api/v1/pixels', {
        form: { name: 'Facebook', type: 'facebook', value: '1234567890' },
      })
      const ads = await t.call('POST', '/api/v1/pixels', {
        form: { name: 'Ads', type: 'bing', value: '777' },
      })
      const start = async () => {
        const res = await post(t!, { source: 'phpshort', url: api.url, key: 'php-key' })
        expect(res.statusCode).toBe(202)
        await t!.services.imports.idle()
        return res.json().data.id as number
      }
      const first = await start()
      expect((await t.call('GET', `/api/v1/imports/${first}`)).json().data).toMatchObject({
        status: 'done',
        counts: { created: 2, renamed: 0, skipped: 0, duplicate: 0, invalid: 1, unknown_domain: 0 },
      })
      const rows = (await t.call('GET', `/api/v1/imports/${first}/rows`)).json().data
      expect(
        rows.map((r: { outcome: string; message: string | null }) => [r.outcome, r.message]),
      ).toEqual([
        [
          'created',
          'Its statistics had a password, which the source does not give: they are private. ' +
            'It had a password, which the source does not give: set a new one to open it.',
        ],
        ['created', null],
        [
          'invalid',
          'The selected country.0.key is invalid. The rotation.0.value field must be a valid URL.',
        ],
      ])

      const pixels = (await t.call('GET', '/api/v1/pixels?sort=asc')).json().data
      expect(
        pixels.map((p: { name: string; type: string; value: string }) => [p.name, p.type, p.value]),
      ).toEqual([
        ['Facebook', 'facebook', '1234567890'],
        ['Ads', 'bing', '777'],
        ['Ads-2', 'google-ads', 'AW-42'],
      ])
      const list = (await t.call('GET', '/api/v1/links?sort=asc')).json().data
      const pick = (link: Record<string, unknown>) => ({
        alias: link.alias,
        target_type: link.target_type,
        country_target: link.country_target,
        platform_target: link.platform_target,
        language_target: link.language_target,
        rotation_target: link.rotation_target,
        disabled: link.disabled,
        privacy: link.privacy,
        privacy_password: link.privacy_password,
        password: link.password,
        expiration_url: link.expiration_url,
        expiration_clicks: link.expiration_clicks,
        clicks: link.clicks,
        space: (link.space as { name: string } | null)?.name ?? null,
        pixels: (link.pixels as { id: number }[]).map((p) => p.id),
        ends_at: link.ends_at,
        created_at: link.created_at,
      })
      expect(list.map(pick)).toEqual([
        {
          alias: 'promo',
          target_type: 1,
          country_target: PHPSHORT_LINKS[0]!.country_target,
          platform_target: [{ key: 'iOS', value: 'https://example.com/ios' }],
          language_target: [{ key: 'de', value: 'https://example.com/deutsch' }],
          rotation_target: [
            { value: 'https://example.com/r1' },
            { value: 'https://example.com/r2' },
          ],
          disabled: 0,
          privacy: 1,
          privacy_password: false,
          password: true,
          expiration_url: 'https://example.com/gone',
          expiration_clicks: 100,
          clicks: 31,
          space: 'Marketing',
          pixels: [fb.json().data.id, pixels[2].id],
          ends_at: '2030-01-01T00:00:00.000000Z',
          created_at: '2021-06-01T12:00:00.000000Z',
        },
        {
          alias: 'guide',
          target_type: 0,
          country_target: null,
          platform_target: null,
          language_target: null,
          rotation_target: null,
          disabled: 1,
          privacy: 1,
          privacy_password: false,
          password: false,
          expiration_url: null,
          expiration_clicks: null,
          clicks: 0,
          space: null,
          pixels: [fb.json().data.id],
          ends_at: null,
          created_at: '2021-06-02T12:00:00.000000Z',
        },
      ])
      expect(ads.statusCode).toBe(201)

      // Again: nothing new, no pixel made twice.
      const second = await start()
      expect((await t.call('GET', `/api/v1/imports/${second}`)).json().data.counts).toEqual({
        created: 0,
        renamed: 0,
        skipped: 0,
        duplicate: 2,
        invalid: 1,
        unknown_domain: 0,
      })
      expect((await t.call('GET', '/api/v1/pixels')).json().meta.total).toBe(3)
    } finally {
      await api.close()
    }
  })
})
