/**
 * The caps of the import routes: imports in flight per user (429 in the contract's error
 * shape, before the body is read; the dashboard shows the form again), and the bounded report
 * of invalid rows of an import started through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  KEPT_INVALID_ROWS,
  MAX_IMPORTS_IN_FLIGHT,
  TOO_MANY_IMPORTS,
} from '../../src/imports/caps.js'
import { createTestApp, KEY_A, KEY_B, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { expectStatus } from './helpers.js'

const BOUNDARY = '----import-caps'

function multipart(fields: Record<string, string>, file: string): string {
  let body = ''
  for (const [name, value] of Object.entries(fields))
    body += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
  body +=
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="links.json"\r\n` +
    `Content-Type: application/json\r\n\r\n${file}\r\n`
  return `${body}--${BOUNDARY}--\r\n`
}

describe('import caps', () => {
  let t: TestApp
  let alice: FormClient

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
  })
  afterAll(async () => {
    await t.services.imports.idle()
    await t.close()
  })

  const api = (key: string, body: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/imports',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      payload: body,
    })

  const imports = (userId: number) =>
    t.services.db.kysely.selectFrom('imports').select('id').where('user_id', '=', userId).execute()

  /** An import of the user's that is `queued` (no run behind it). */
  const queued = (userId: number) =>
    t.services.imports.begin(userId, {
      source: 'sink',
      origin: 'links.json',
      scope: 'sink',
      dryRun: true,
      onConflict: 'skip',
    })

  const SINK = '{"links":[{"id":"1","url":"https://example.com/1","slug":"s1"}]}'

  it(`a user with ${MAX_IMPORTS_IN_FLIGHT} imports in flight gets a 429 for one more; another user does not`, async () => {
    const held = [await queued(t.userA), await queued(t.userA)]
    const before = await imports(t.userA)
    const res = await api(KEY_A, multipart({ source: 'sink', dry_run: '1' }, SINK))
    expect(res.statusCode).toBe(429)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.json()).toEqual({ message: TOO_MANY_IMPORTS, status: 429 })
    expect(TOO_MANY_IMPORTS).toBe('At most 2 imports may run at once; wait for one to end.')
    expect(await imports(t.userA)).toEqual(before)

    const other = await api(KEY_B, multipart({ source: 'sink', dry_run: '1' }, SINK))
    expect(other.statusCode).toBe(202)

    // The dashboard's form: the same refusal, on the form again.
    const csrf = csrfOf((await alice.get('/dashboard/imports')).body)
    const page = await t.app.inject({
      method: 'POST',
      url: '/dashboard/imports',
      headers: {
        host: 'short.test',
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        cookie: [...alice.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      payload: multipart({ _csrf: csrf, source: 'sink', dry_run: '1' }, SINK),
    })
    expectStatus(page, 429)
    expect(page.body).toContain(`<p class="field-error" id="source-error">${TOO_MANY_IMPORTS}</p>`)
    expect(await imports(t.userA)).toEqual(before)

    for (const record of held) await t.services.imports.fail(record, 'ended by the test')
    await t.services.imports.idle()
  })

  it('two imports started at once for the last place: one is made, the other refused', async () => {
    const held = await queued(t.userA)
    const options = {
      source: 'sink',
      origin: 'links.json',
      scope: 'sink',
      dryRun: true,
      onConflict: 'skip' as const,
    }
    const results = await Promise.allSettled([
      t.services.imports.beginCapped(t.userA, options, MAX_IMPORTS_IN_FLIGHT),
      t.services.imports.beginCapped(t.userA, options, MAX_IMPORTS_IN_FLIGHT),
    ])
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect(refused.reason).toMatchObject({ status: 429, message: TOO_MANY_IMPORTS })
    const made = results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{
      id: number
    }>
    const inFlight = await t.services.db.kysely
      .selectFrom('imports')
      .select('id')
      .where('user_id', '=', t.userA)
      .where('status', 'in', ['queued', 'running'])
      .orderBy('id')
      .execute()
    expect(inFlight).toEqual([{ id: held.id }, { id: made.value.id }])
    await t.services.imports.fail(held, 'ended by the test')
    await t.services.imports.fail(made.value as never, 'ended by the test')
  })

  it(`a JSON file of empty objects: every row counted, the first ${KEPT_INVALID_ROWS} invalid ones kept`, async () => {
    const file = `{"links":[${Array(KEPT_INVALID_ROWS + 500)
      .fill('{}')
      .join(',')}]}`
    const res = await api(KEY_B, multipart({ source: 'sink', dry_run: '1' }, file))
    expect(res.statusCode).toBe(202)
    const id = res.json().data.id as number
    await t.services.imports.idle()
    const shown = (await t.call('GET', `/api/v1/imports/${id}`, { key: KEY_B })).json().data
    expect(shown).toMatchObject({
      status: 'done',
      total: KEPT_INVALID_ROWS + 500,
      counts: { invalid: KEPT_INVALID_ROWS + 500, created: 0 },
    })
    const rows = (
      await t.call('GET', `/api/v1/imports/${id}/rows?per_page=10`, { key: KEY_B })
    ).json()
    expect(rows.meta.total).toBe(KEPT_INVALID_ROWS)
  })
})
