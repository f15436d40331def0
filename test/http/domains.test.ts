/** Domains: own and global ones, the record, the field rules, read-only globals, the list. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY_B, createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  DOMAIN_FIELDS,
  FORBIDDEN,
  anyTimestamp,
  createDomain,
  createLink,
  createSpace,
  defaultDomain,
  expectStatus,
  jsonContentType,
  listIds,
  show,
  validation,
  type Rec,
} from './helpers.js'
import { listTests, recordTests } from './resource-tests.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

function post(form: Record<string, string | number> | string, key?: string) {
  return t.call('POST', `${API}/domains`, { form, ...(key ? { key } : {}) })
}

async function expect422(
  res: Awaited<ReturnType<typeof post>>,
  message: Record<string, unknown[]>,
) {
  expectStatus(res, 422)
  expect(res.json()).toEqual(validation(message))
}

describe('store and show', () => {
  it('stores a domain: HTTP 201 with the record and "status":200, fields in order, https by default', async () => {
    const res = await post({
      name: 'go.example.com',
      index_page: 'https://example.com/',
      not_found_page: 'https://example.com/missing',
    })
    expectStatus(res, 201)
    jsonContentType(res)
    expect(res.json()).toEqual({
      data: {
        id: expect.any(Number),
        name: 'go.example.com',
        url: 'https://go.example.com',
        index_page: 'https://example.com/',
        not_found_page: 'https://example.com/missing',
        global: false,
        created_at: anyTimestamp(),
        updated_at: anyTimestamp(),
      },
      status: 200,
    })
    expect(Object.keys(res.json().data)).toEqual(DOMAIN_FIELDS)
  })

  it.each([
    ['plain.example.com', 'plain.example.com', 'https://plain.example.com'],
    ['bücher.example.com/', 'xn--bcher-kva.example.com', 'https://xn--bcher-kva.example.com'],
    ['http://http.example.com', 'http.example.com', 'http://http.example.com'],
    ['https://Upper.Example.com', 'upper.example.com', 'https://upper.example.com'],
  ])('stores the name %j as host %j with url %j', async (input, name, url) => {
    const res = await post({ name: input })
    expectStatus(res, 201)
    expect(res.json().data).toMatchObject({
      name,
      url,
      index_page: null,
      not_found_page: null,
      global: false,
    })
  })

  it('shows an own domain and the global default domain', async () => {
    const domain = await createDomain(t, { name: 'shown.example.com' })
    const own = await t.call('GET', `${API}/domains/${domain.id}`)
    expectStatus(own, 200)
    expect(own.json()).toEqual({ data: domain, status: 200 })
    const global = await t.call('GET', `${API}/domains/${t.defaultDomainId}`)
    expectStatus(global, 200)
    expect(global.json()).toEqual({ data: defaultDomain(t), status: 200 })
    expect(Object.keys(global.json().data)).toEqual(DOMAIN_FIELDS)
  })
})

describe('field rules', () => {
  it('requires a name', async () => {
    await expect422(await post({ index_page: 'https://example.com/' }), {
      name: ['The name field is required.'],
    })
  })

  it.each([
    'not a domain',
    'https://path.example.com/path',
    'https://query.example.com/?q=1',
    'ftp://ftp.example.com',
    'javascript:alert(1)',
    'user:pw@cred.example.com',
    'under_score.example.com',
  ])('rejects the domain name %j', async (name) => {
    await expect422(await post({ name }), {
      name: ['The name field must be a valid domain name.'],
    })
  })

  let renamed = 0
  it.each([
    '127.0.0.1',
    '2130706433',
    '[::1]',
    'http://[::1]',
    'localhost',
    'localhost.',
    'example.com.',
    'a..b',
    '-a.com',
    'go.example.com:0',
    'http://go.example.com:8080',
    `${'a'.repeat(64)}.example.com`,
  ])('rejects %j, on create and on update', async (name) => {
    await expect422(await post({ name }), {
      name: ['The name field must be a valid domain name.'],
    })
    const domain = await createDomain(t, {
      name: `update-${++renamed}.example.com`,
    })
    const res = await t.call('PATCH', `${API}/domains/${domain.id}`, { form: { name } })
    await expect422(res, { name: ['The name field must be a valid domain name.'] })
    expect(await show(t, `domains/${domain.id}`)).toEqual(domain)
  })

  it('rejects a host name another user has, whatever the case or scheme', async () => {
    await createDomain(t, { name: 'taken.example.com' }, KEY_B)
    for (const name of ['taken.example.com', 'http://TAKEN.example.com']) {
      await expect422(await post({ name }), { name: ['The name has already been taken.'] })
    }
  })

  it('rejects the service’s own domain and every global one, on create and on update', async () => {
    const global = await t.services.domains.create(null, { name: 'global.domains.example' })
    const own = ["The name field must not be one of the service's own domains."]
    const domain = await createDomain(t, { name: 'renamed.domains.example' })
    for (const name of ['short.test', 'http://SHORT.test', 'global.domains.example']) {
      await expect422(await post({ name }), { name: own })
      const res = await t.call('PUT', `${API}/domains/${domain.id}`, { form: { name } })
      await expect422(res, { name: own })
    }
    expect(await show(t, `domains/${domain.id}`)).toEqual(domain)
    await t.services.domains.deleteGlobal(global.id)
  })

  it.each(['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'example.com'])(
    'rejects %j as index_page and not_found_page',
    async (bad) => {
      await expect422(
        await post({ name: 'pages.example.com', index_page: bad, not_found_page: bad }),
        {
          index_page: ['The index page field must be a valid URL.'],
          not_found_page: ['The not found page field must be a valid URL.'],
        },
      )
    },
  )

  it('reports every failing field at once', async () => {
    await expect422(
      await post({ name: 'bad name', index_page: 'vbscript:x', not_found_page: 'nope' }),
      {
        name: ['The name field must be a valid domain name.'],
        index_page: ['The index page field must be a valid URL.'],
        not_found_page: ['The not found page field must be a valid URL.'],
      },
    )
  })
})

describe('update and delete of own domains', () => {
  for (const method of ['PUT', 'PATCH'] as const) {
    it(`${method} changes the fields sent and keeps the others`, async () => {
      const domain = await createDomain(t, {
        name: `${method.toLowerCase()}.upd.example.com`,
        index_page: 'https://example.com/index',
      })
      const res = await t.call(method, `${API}/domains/${domain.id}`, {
        form: { not_found_page: 'https://example.com/404' },
      })
      expectStatus(res, 200)
      expect(res.json()).toEqual({
        data: { ...domain, not_found_page: 'https://example.com/404', updated_at: anyTimestamp() },
        status: 200,
      })
      expect(await show(t, `domains/${domain.id}`)).toEqual(res.json().data)
    })
  }

  it('clears index_page and not_found_page with empty values', async () => {
    const domain = await createDomain(t, {
      name: 'clear.example.com',
      index_page: 'https://example.com/i',
      not_found_page: 'https://example.com/n',
    })
    const res = await t.call('PATCH', `${API}/domains/${domain.id}`, {
      form: 'index_page=&not_found_page=',
    })
    expectStatus(res, 200)
    expect(res.json().data).toMatchObject({ index_page: null, not_found_page: null })
  })

  it('renames a domain; its links’ short_url follow', async () => {
    const domain = await createDomain(t, { name: 'before.example.com' })
    const link = await createLink(t, { domain_id: domain.id, alias: 'moving' })
    const res = await t.call('PATCH', `${API}/domains/${domain.id}`, {
      form: { name: 'http://after.example.com' },
    })
    expectStatus(res, 200)
    expect(res.json().data).toMatchObject({
      name: 'after.example.com',
      url: 'http://after.example.com',
    })
    expect((await show(t, `links/${link.id}`)).short_url).toBe('http://after.example.com/moving')
  })

  it('keeps the domain’s own name on update (not a duplicate of itself)', async () => {
    const domain = await createDomain(t, { name: 'itself.example.com' })
    const res = await t.call('PUT', `${API}/domains/${domain.id}`, {
      form: { name: 'itself.example.com' },
    })
    expectStatus(res, 200)
  })

  it('deletes the links of a deleted domain, and only those', async () => {
    const doomed = await createDomain(t, { name: 'with-links.example.com' })
    const kept = await createDomain(t, { name: 'kept.example.com' })
    const space = await createSpace(t, { name: 'Survives domain deletion' })
    const on1 = await createLink(t, { domain_id: doomed.id, alias: 'same', space_id: space.id })
    const on2 = await createLink(t, { domain_id: doomed.id })
    const onKept = await createLink(t, { domain_id: kept.id, alias: 'same' })
    const onGlobal = await createLink(t, { alias: 'same-global' })
    expectStatus(await t.call('DELETE', `${API}/domains/${doomed.id}`), 200)
    for (const gone of [on1, on2]) expectStatus(await t.call('GET', `${API}/links/${gone.id}`), 404)
    expect(await show(t, `links/${onKept.id}`)).toEqual(onKept)
    expect(await show(t, `links/${onGlobal.id}`)).toEqual(onGlobal)
    expect(await show(t, `spaces/${space.id}`)).toEqual(space)
    expect(await listIds(t, `links?domain_id=${doomed.id}`)).toEqual([])
  })

  it('frees the host name of a deleted domain', async () => {
    const domain = await createDomain(t, { name: 'reuse.example.com' })
    expectStatus(await t.call('DELETE', `${API}/domains/${domain.id}`), 200)
    expectStatus(await post({ name: 'reuse.example.com' }, KEY_B), 201)
  })
})

describe('global domains', () => {
  it.each(['PUT', 'PATCH'] as const)(
    'refuses %s of a global domain with 403 and leaves it unchanged',
    async (method) => {
      const res = await t.call(method, `${API}/domains/${t.defaultDomainId}`, {
        form: { not_found_page: 'https://example.com/hijack' },
      })
      expectStatus(res, 403)
      jsonContentType(res)
      expect(res.json()).toEqual(FORBIDDEN)
      expect(await show(t, `domains/${t.defaultDomainId}`)).toEqual(defaultDomain(t))
    },
  )

  it('refuses to delete a global domain with 403, for every user', async () => {
    for (const key of [undefined, KEY_B]) {
      const res = await t.call('DELETE', `${API}/domains/${t.defaultDomainId}`, key ? { key } : {})
      expectStatus(res, 403)
      expect(res.json()).toEqual(FORBIDDEN)
    }
    expect(await show(t, `domains/${t.defaultDomainId}`)).toEqual(defaultDomain(t))
  })

  it('refuses an invalid update of a global domain with 403 too (no validation first)', async () => {
    const res = await t.call('PATCH', `${API}/domains/${t.defaultDomainId}`, {
      form: { name: 'bad name' },
    })
    expectStatus(res, 403)
    expect(res.json()).toEqual(FORBIDDEN)
  })

  it('lists the global domain for every user', async () => {
    expect(await listIds(t, 'domains?per_page=100')).toContain(t.defaultDomainId)
    expect(await listIds(t, 'domains?per_page=100', KEY_B)).toContain(t.defaultDomainId)
  })
})

describe('missing and deleted records', () => {
  recordTests({
    path: 'domains',
    noun: 'domain',
    app: () => t,
    create: () => createDomain(t, { name: 'doomed.example.com' }),
    update: { index_page: 'https://example.com/' },
  })
})

describe('list', () => {
  const KEY_L = 'test-key-domain-lister-0123456789'
  const D: Rec[] = []

  beforeAll(async () => {
    await t.services.users.createUser({ email: 'domains@example.com', apiKey: KEY_L })
    for (const name of ['zeta.lister.example', 'Alpha.lister.example', 'mid-lister.example']) {
      D.push(await createDomain(t, { name }, KEY_L))
    }
  })

  const g = () => t.defaultDomainId
  const ids = (...n: number[]) => n.map((i) => D[i]!.id)

  listTests({
    path: 'domains',
    app: () => t,
    key: KEY_L,
    records: () => D,
    shared: { title: 'the global ones', records: () => [defaultDomain(t)] },
    queries: {
      'searches names case-insensitively': () => [
        ['&search=LISTER', ids(2, 1, 0)],
        ['&search=short', [g()]],
        ['&search=-', ids(2)],
      ],
      'sorts by id and by name, both directions': () => [
        ['&sort=asc', [g(), ...ids(0, 1, 2)]],
        ['&sort_by=name&sort=asc', [...ids(1, 2), g(), ...ids(0)]],
        ['&sort_by=name&sort=desc', [...ids(0), g(), ...ids(2, 1)]],
      ],
    },
    invalid: [
      ['sort_by=url', { sort_by: ['The selected sort by is invalid.'] }],
      ['per_page=11', { per_page: ['The selected per page is invalid.'] }],
      ['sort=random', { sort: ['The selected sort is invalid.'] }],
    ],
  })
})
