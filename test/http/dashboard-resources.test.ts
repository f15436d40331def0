/**
 * The dashboard's Pixels, Spaces and Domains screens: one table of cases per resource runs the
 * same list, create, edit and delete checks (the API's messages beside each field, what was
 * typed kept, tenancy 404s, CSRF 403s), and the API sees every change. Then what only domains
 * have: global domains are shown to users read-only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { API, createDomain, createPixel, createSpace, expectStatus, type Rec } from './helpers.js'

const SCRIPT = '<script>alert(1)</script>'

interface Case {
  resource: 'pixels' | 'spaces' | 'domains'
  make(t: TestApp, name: string, key?: string): Promise<Rec>
  /** A valid form, and the record field that shows its name. */
  good: Record<string, string>
  changed: Record<string, string>
  /** A form where every field fails, with the API's message for each, in people's words. */
  bad: Record<string, string>
  messages: Record<string, string>
  /** A stored name holding markup, shown escaped in the list. */
  hostile: Record<string, string>
  /** How the list shows it (a URL's markup is stored percent-encoded, as the parser reads it). */
  hostileShown?: string
  badQuery: [string, string]
}

const cases: Case[] = [
  {
    resource: 'pixels',
    make: (t, name, key) => createPixel(t, { name }, key),
    good: { name: 'Launch pixel', type: 'google-analytics', value: 'G-12345' },
    changed: { name: 'Renamed pixel', type: 'adroll', value: 'ADV1-PIX2' },
    bad: { name: 'x'.repeat(33), type: 'myspace', value: 'not a value!' },
    messages: {
      name: '“Name” is too long: at most 32 characters.',
      type: 'Choose “Type” from the list.',
      value: '“Pixel ID” may only contain letters, digits, - and _.',
    },
    hostile: { name: SCRIPT.slice(0, 32), type: 'facebook', value: '123' },
    badQuery: ['type=myspace', 'The selected type is invalid.'],
  },
  {
    resource: 'spaces',
    make: (t, name, key) => createSpace(t, { name }, key),
    good: { name: 'Campaigns', color: '3' },
    changed: { name: 'Old campaigns', color: '6' },
    bad: { name: '', color: '9' },
    messages: {
      name: 'Fill in “Name”.',
      color: 'Choose “Colour” from the list.',
    },
    hostile: { name: SCRIPT.slice(0, 32), color: '2' },
    badQuery: ['sort_by=clicks', 'The selected sort by is invalid.'],
  },
  {
    resource: 'domains',
    make: (t, name, key) => createDomain(t, { name }, key),
    good: { name: 'go.example.com', index_page: 'https://example.com/', not_found_page: '' },
    changed: {
      name: 'http://links.example.org',
      index_page: '',
      not_found_page: 'https://example.org/404',
    },
    bad: { name: 'not a domain', index_page: 'javascript:alert(1)', not_found_page: 'ftp://x' },
    messages: {
      name: '“Domain name” must be a domain name, such as go.example.com.',
      index_page: '“Index page” must be a web address, such as https://example.org/page.',
      not_found_page: '“Not-found page” must be a web address, such as https://example.org/page.',
    },
    hostile: { name: 'xss.example.com', index_page: `https://example.com/?q=${SCRIPT}` },
    hostileShown: 'https://example.com/?q=%3Cscript%3Ealert(1)%3C/script%3E',
    badQuery: ['per_page=7', 'The selected per page is invalid.'],
  },
]

describe('dashboard pixels, spaces and domains', () => {
  let t: TestApp
  let alice: FormClient
  let bob: FormClient

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    await t.services.accounts.setPassword(t.userB, 'bob password 1')
    alice = new FormClient(t.app)
    bob = new FormClient(t.app, '192.0.2.11')
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
    expectStatus(await bob.signIn('b@example.com', 'bob password 1'), 303)
  })
  afterAll(() => t.close())

  const apiRecord = async (resource: string, id: number, key?: string) => {
    const res = await t.call('GET', `${API}/${resource}/${id}`, key ? { key } : {})
    return {
      status: res.statusCode,
      data: res.statusCode === 200 ? (res.json() as { data: Rec }).data : null,
    }
  }

  for (const c of cases) {
    const base = `/dashboard/${c.resource}`

    describe(c.resource, () => {
      it('lists only the viewer’s own, escaped, with the create link', async () => {
        const own = await c.make(t, `${c.resource}-alice-1.example.com`.slice(0, 30))
        const bobs = await c.make(t, `${c.resource}-bob-1.example.com`.slice(0, 30), KEY_B)
        const res = await alice.get(base)
        expectStatus(res, 200)
        expect(res.body).toContain(`id="item-${own.id}"`)
        expect(res.body).not.toContain(`id="item-${bobs.id}"`)
        expect(res.body).toContain(`<a class="button" href="${base}/new" id="new-item">`)
        expect(res.body).toContain(`href="${base}/${own.id}/edit"`)
        expect(res.body).toContain(`href="${base}/${own.id}/delete"`)
      })

      it('creates from the form: 303 to the list with a notice, and the API shows it', async () => {
        const form = await alice.get(`${base}/new`)
        expectStatus(form, 200)
        expect(form.body).toContain(`<form method="post" action="${base}" novalidate>`)
        const res = await alice.post(base, { _csrf: csrfOf(form.body), ...c.good })
        expectStatus(res, 303)
        expect(res.headers.location).toBe(`${base}?done=created`)
        const list = await alice.get(res.headers.location!)
        expect(list.body).toMatch(/<p class="notice" role="status" id="notice">\w+ created\.<\/p>/)
        const api = await t.call(
          'GET',
          `${API}/${c.resource}?search=${encodeURIComponent(c.good.name!.replace(/^https?:\/\//, '').slice(0, 8))}`,
        )
        const found = (api.json() as { data: Rec[] }).data
        expect(found.length).toBeGreaterThan(0)
      })

      it('refuses a bad form with every field’s API message beside it, keeping what was typed', async () => {
        const form = await alice.get(`${base}/new`)
        const res = await alice.post(base, { _csrf: csrfOf(form.body), ...c.bad })
        expectStatus(res, 422)
        expect(res.body).toContain('Nothing was saved: please correct the fields marked below.')
        for (const [name, message] of Object.entries(c.messages)) {
          expect(res.body).toContain(`<p class="field-error" id="${name}-error">${message}</p>`)
          expect(res.body).toMatch(
            new RegExp(
              `id="${name}" name="${name}"[^>]*aria-invalid="true"|<select id="${name}" name="${name}" aria-invalid="true"`,
            ),
          )
        }
        for (const [name, value] of Object.entries(c.bad)) {
          if (value === '' || name === 'type' || name === 'color') continue
          expect(res.body).toContain(
            `name="${name}" value="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`,
          )
        }
      })

      it('edits a row: the form shows its values, a save is a 303 and the API sees it', async () => {
        const row = await c.make(t, `${c.resource}-edit.example.com`.slice(0, 30))
        const form = await alice.get(`${base}/${row.id}/edit`)
        expectStatus(form, 200)
        expect(form.body).toContain(`action="${base}/${row.id}"`)
        expect(form.body).toContain(`value="${String(row.name)}"`)
        const res = await alice.post(`${base}/${row.id}`, {
          _csrf: csrfOf(form.body),
          ...c.changed,
        })
        expectStatus(res, 303)
        expect(res.headers.location).toBe(`${base}?done=updated`)
        const after = await apiRecord(c.resource, row.id)
        expect(after.data?.name).toBe(c.changed.name!.replace(/^https?:\/\//, ''))
        // A failing edit keeps the row as it was.
        const bad = await alice.post(`${base}/${row.id}`, { _csrf: csrfOf(form.body), ...c.bad })
        expectStatus(bad, 422)
        expect((await apiRecord(c.resource, row.id)).data?.name).toBe(after.data?.name)
      })

      it('deletes after a confirmation page', async () => {
        const row = await c.make(t, `${c.resource}-gone.example.com`.slice(0, 30))
        const confirm = await alice.get(`${base}/${row.id}/delete`)
        expectStatus(confirm, 200)
        expect(confirm.body).toContain(`<form method="post" action="${base}/${row.id}/delete">`)
        expect(confirm.body).toContain(`<strong id="delete-name">${String(row.name)}</strong>`)
        expect((await apiRecord(c.resource, row.id)).status).toBe(200)
        const res = await alice.post(`${base}/${row.id}/delete`, { _csrf: csrfOf(confirm.body) })
        expectStatus(res, 303)
        expect(res.headers.location).toBe(`${base}?done=deleted`)
        expect((await apiRecord(c.resource, row.id)).status).toBe(404)
      })

      it('answers another user’s id, or no id, with a 404 page and changes nothing', async () => {
        const bobs = await c.make(t, `${c.resource}-bobs.example.com`.slice(0, 30), KEY_B)
        const token = csrfOf((await alice.get(`${base}/new`)).body)
        for (const path of [
          `${base}/${bobs.id}/edit`,
          `${base}/${bobs.id}/delete`,
          `${base}/abc/edit`,
          `${base}/999999/delete`,
        ]) {
          const res = await alice.get(path)
          expectStatus(res, 404)
          expect(res.body).toContain('<h1>Not found</h1>')
        }
        expectStatus(await alice.post(`${base}/${bobs.id}`, { _csrf: token, ...c.changed }), 404)
        expectStatus(await alice.post(`${base}/${bobs.id}/delete`, { _csrf: token }), 404)
        const still = await apiRecord(c.resource, bobs.id, KEY_B)
        expect(still.status).toBe(200)
        expect(still.data?.name).toBe(bobs.name)
      })

      it('refuses every POST without its CSRF token with a 403 page, before any change', async () => {
        const row = await c.make(t, `${c.resource}-csrf.example.com`.slice(0, 30))
        for (const [path, form] of [
          [base, c.good],
          [`${base}/${row.id}`, c.changed],
          [`${base}/${row.id}/delete`, {}],
        ] as const) {
          const res = await alice.post(path, { ...form })
          expectStatus(res, 403)
          expect(res.body).toContain('Form expired')
          const wrong = await alice.post(path, { ...form, _csrf: 'x'.repeat(43) })
          expectStatus(wrong, 403)
        }
        expect((await apiRecord(c.resource, row.id)).data?.name).toBe(row.name)
      })

      it('shows stored markup as text', async () => {
        const form = await alice.get(`${base}/new`)
        const res = await alice.post(base, { _csrf: csrfOf(form.body), ...c.hostile })
        expectStatus(res, 303)
        const list = await alice.get(`${base}?per_page=100`)
        expect(list.body).not.toContain('<script>alert(1)')
        expect(list.body).toContain(c.hostileShown ?? '&lt;script>alert(1)')
      })

      it('takes the API list’s parameters in the URL and answers refused ones with its message', async () => {
        for (const n of [1, 2, 3]) await c.make(t, `zz-${c.resource}-${n}.example.com`.slice(0, 30))
        const res = await alice.get(`${base}?search=zz-&sort_by=name&sort=asc&per_page=10`)
        expectStatus(res, 200)
        const ids = [...res.body.matchAll(/<tr id="item-(\d+)">/g)].map((m) => Number(m[1]))
        expect(ids).toHaveLength(3)
        expect(res.body).toContain('1–3 of 3')
        expect(res.body).toContain('<option value="name" selected>Name</option>')
        const refused = await alice.get(`${base}?${c.badQuery[0]}`)
        expectStatus(refused, 422)
        expect(refused.body).toContain(`<li>${c.badQuery[1]}</li>`)
        expect(refused.body).toMatch(new RegExp(`<a href="${base}">Show all [a-z]+</a>`))
        const paged = await alice.get(`${base}?search=zz-&per_page=10&page=2`)
        expectStatus(paged, 200)
        expect(paged.body).toContain('Nothing on page 2: there are 3 on 1 page.')
      })
    })
  }

  describe('domains only', () => {
    it('shows global domains to users read-only: no edit or delete, 403 if forced', async () => {
      const res = await bob.get('/dashboard/domains')
      expectStatus(res, 200)
      const row =
        new RegExp(`<tr id="item-${t.defaultDomainId}">.*?</tr>`).exec(res.body)?.[0] ?? ''
      expect(row).toContain('short.test')
      expect(row).toContain('Read-only')
      expect(row).not.toContain('/edit')
      const token = csrfOf(res.body)
      for (const path of [
        `/dashboard/domains/${t.defaultDomainId}/edit`,
        `/dashboard/domains/${t.defaultDomainId}/delete`,
      ]) {
        const page = await bob.get(path)
        expectStatus(page, 403)
        expect(page.body).toContain('Not allowed')
      }
      expectStatus(
        await bob.post(`/dashboard/domains/${t.defaultDomainId}`, {
          _csrf: token,
          name: 'taken.example.com',
        }),
        403,
      )
      expectStatus(
        await bob.post(`/dashboard/domains/${t.defaultDomainId}/delete`, { _csrf: token }),
        403,
      )
      expect((await apiRecord('domains', t.defaultDomainId)).data?.name).toBe('short.test')
    })

    it('refuses an address, a port, a single label or the service’s own domain, with the API’s messages', async () => {
      const token = csrfOf((await alice.get('/dashboard/domains/new')).body)
      const bad = '“Domain name” must be a domain name, such as go.example.com.'
      const own = "“Domain name” must not be one of the service's own domains."
      for (const [name, message] of [
        ['127.0.0.1', bad],
        ['[::1]', bad],
        ['localhost', bad],
        ['go.example.com:0', bad],
        ['a..b', bad],
        ['short.test', own],
      ]) {
        const res = await alice.post('/dashboard/domains', {
          _csrf: token,
          name: name!,
          index_page: '',
          not_found_page: '',
        })
        expectStatus(res, 422)
        expect(res.body, name).toContain(`<p class="field-error" id="name-error">${message}</p>`)
      }
    })
  })
})
