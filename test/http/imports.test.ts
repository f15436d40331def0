import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { shlinkApi, sourceApi } from '../support/source-apis.js'

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
        error: '127.0.0.1 resolves to 127.0.0.1, which is not allowed (IMPORT_ALLOWED_HOSTS)',
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
})
