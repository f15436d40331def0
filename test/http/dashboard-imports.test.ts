/**
 * The dashboard's imports: the form (multipart, with its CSRF token) starts an import of a
 * file end to end, the import's page shows its counts and rows by outcome, another user's
 * import is a 404; and the links export through the session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { expectStatus } from './helpers.js'

const BOUNDARY = '----dashboard-import'

function multipart(fields: Record<string, string>, file?: { name: string; content: string }) {
  let body = ''
  for (const [name, value] of Object.entries(fields))
    body += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
  if (file)
    body +=
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
      `Content-Type: text/csv\r\n\r\n${file.content}\r\n`
  return `${body}--${BOUNDARY}--\r\n`
}

const CSV = [
  'url,alias,title,clicks',
  'https://example.com/a,imp-a,First <b>,4',
  'javascript:alert(1),imp-b,,',
  'https://example.com/c,imp-c,Third,0',
].join('\n')

describe('dashboard imports', () => {
  let t: TestApp
  let alice: FormClient
  let bob: FormClient

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    await t.services.accounts.setPassword(t.userB, 'bob password')
    alice = new FormClient(t.app)
    bob = new FormClient(t.app, '192.0.2.11')
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
    expectStatus(await bob.signIn('b@example.com', 'bob password'), 303)
  })
  afterAll(async () => {
    await t.services.imports.idle()
    await t.close()
  })

  const postForm = (client: FormClient, body: string) =>
    t.app.inject({
      method: 'POST',
      url: '/dashboard/imports',
      remoteAddress: '192.0.2.10',
      headers: {
        host: 'short.test',
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      payload: body,
    })

  const importCount = async () =>
    (await t.services.db.kysely.selectFrom('imports').select('id').execute()).length

  it('shows the form (multipart, with the CSRF token) and the Imports entry of the navigation', async () => {
    const res = await alice.get('/dashboard/imports')
    expectStatus(res, 200)
    expect(res.body).toContain(
      '<form method="post" action="/dashboard/imports" enctype="multipart/form-data" id="import-form"',
    )
    expect(res.body).toContain(
      '<a href="/dashboard/imports" aria-current="page" id="nav-imports">Imports</a>',
    )
    expect(res.body).toContain('No import yet.')
    expect(csrfOf(res.body)).toMatch(/.{20,}/)
  })

  it('refuses a form without its CSRF token (403), and starts nothing', async () => {
    const file = { name: 'links.csv', content: CSV }
    const none = await postForm(alice, multipart({ source: 'csv' }, file))
    expectStatus(none, 403)
    const wrong = await postForm(alice, multipart({ _csrf: 'not-the-token', source: 'csv' }, file))
    expectStatus(wrong, 403)
    expect(await importCount()).toBe(0)
  })

  it('a form with what the source needs missing is shown again with the API messages (422)', async () => {
    const csrf = csrfOf((await alice.get('/dashboard/imports')).body)
    const res = await postForm(
      alice,
      multipart({ _csrf: csrf, source: 'shlink', url: 'ftp://x', on_conflict: 'merge' }),
    )
    expectStatus(res, 422)
    expect(res.body).toContain(
      '<p class="field-error" id="url-error">The url field must be a valid URL.</p>',
    )
    expect(res.body).toContain(
      '<p class="field-error" id="key-error">The key field is required when source is shlink.</p>',
    )
    expect(res.body).toContain(
      '<p class="field-error" id="on_conflict-error">The selected on conflict is invalid.</p>',
    )
    expect(res.body).toContain('<option value="shlink" selected>Shlink (API)</option>')
    const missingFile = await postForm(alice, multipart({ _csrf: csrf, source: 'csv' }))
    expectStatus(missingFile, 422)
    expect(missingFile.body).toContain('The file field is required when source is csv.')
    expect(await importCount()).toBe(0)
  })

  it('imports a file through the form end to end: 303 to its page, counts, rows by outcome; another user gets a 404', async () => {
    const csrf = csrfOf((await alice.get('/dashboard/imports')).body)
    const res = await postForm(
      alice,
      multipart(
        { _csrf: csrf, source: 'csv', on_conflict: 'skip' },
        { name: 'links.csv', content: CSV },
      ),
    )
    expectStatus(res, 303)
    const location = res.headers.location as string
    expect(location).toMatch(/^\/dashboard\/imports\/\d+$/)
    await t.services.imports.idle()

    const page = await alice.get(location)
    expectStatus(page, 200)
    expect(page.body).toContain('<span class="status status-done">Done</span>')
    expect(page.body).toContain('<li><strong>3</strong> rows</li>')
    expect(page.body).toContain('<li><strong>2</strong> created</li>')
    expect(page.body).toContain('<li><strong>1</strong> invalid</li>')
    // Finished: no more polling.
    expect(page.body).not.toContain('hx-trigger')
    const invalid = await alice.get(`${location}?outcome=invalid`)
    expectStatus(invalid, 200)
    expect([...invalid.body.matchAll(/<tr id="row-(\d+)">/g)].map((m) => m[1])).toEqual(['2'])
    expect(invalid.body).toContain('The url field must be a valid http or https URL.')
    const every = await alice.get(`${location}?outcome=`)
    expect([...every.body.matchAll(/<tr id="row-(\d+)">/g)].map((m) => m[1])).toEqual([
      '1',
      '2',
      '3',
    ])
    // htmx's refresh asks for the status block alone (no stylesheet with another nonce).
    const fragment = await t.app.inject({
      method: 'GET',
      url: location,
      remoteAddress: '192.0.2.10',
      headers: {
        host: 'short.test',
        'hx-request': 'true',
        cookie: [...alice.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    })
    expectStatus(fragment, 200)
    expect(fragment.body).toMatch(/^<section class="panel" id="import-status"/)
    expect(fragment.body).not.toContain('<style')
    const bad = await alice.get(`${location}?outcome=lost`)
    expectStatus(bad, 422)
    expect(bad.body).toContain('<h2>These filters cannot be used</h2>')
    expect(bad.body).toContain(`<a href="${location}">Show every row</a>`)

    const links = (await t.call('GET', '/api/v1/links?sort=asc')).json().data
    expect(
      links.map((l: { alias: string; title: string; clicks: number }) => [
        l.alias,
        l.title,
        l.clicks,
      ]),
    ).toEqual([
      ['imp-a', 'First <b>', 4],
      ['imp-c', 'Third', 0],
    ])
    const list = await alice.get('/dashboard/imports')
    expect(list.body).toContain(`<a href="${location}">#`)
    expect(list.body).not.toContain('No import yet.')

    for (const path of [location, '/dashboard/imports/abc', '/dashboard/imports/999999']) {
      expectStatus(await bob.get(path), 404)
    }
    expect((await bob.get('/dashboard/imports')).body).toContain('No import yet.')
  })

  it('exports the links with the list filters through the session, as CSV or JSON; bad filters are a 422 page', async () => {
    const csv = await alice.get('/dashboard/links/export?format=csv&search=imp-a&search_by=alias')
    expectStatus(csv, 200)
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="links-\d{4}-\d{2}-\d{2}\.csv"$/,
    )
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n')
    expect(lines[0]).toBe(
      'url,alias,title,space,domain,created_at,clicks,password,expiration_date,expiration_time,expiration_clicks,short_url,disabled,id,tags',
    )
    expect(lines).toHaveLength(2)
    expect(lines[1]).toMatch(
      /^https:\/\/example\.com\/a,imp-a,First <b>,,short\.test,[^,]+,4,,,,,http:\/\/short\.test\/imp-a,0,\d+,$/,
    )

    const json = await alice.get('/dashboard/links/export?format=json&by=alias&search=imp-')
    expectStatus(json, 200)
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(JSON.parse(json.body).data.map((l: { alias: string }) => l.alias)).toEqual([
      'imp-a',
      'imp-c',
    ])
    // Bob's export holds none of Alice's links.
    expect(JSON.parse((await bob.get('/dashboard/links/export?format=json')).body)).toEqual({
      data: [],
      status: 200,
    })

    const bad = await alice.get('/dashboard/links/export?format=xml&status=9')
    expectStatus(bad, 422)
    expect(bad.body).toContain('These filters cannot be used')
    const anonymous = await new FormClient(t.app).get('/dashboard/links/export')
    expectStatus(anonymous, 303)
    expect(anonymous.headers.location).toBe('/login')
  })
})
