/**
 * The link form's layout over HTTP (no JavaScript): the destination field focused, the
 * optional parts as closed `<details>` whose summaries say what is set, a section with a
 * message opened, `https://` added to a URL typed without a scheme, and a past expiry saved
 * only once it is confirmed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { API, createSpace, expectStatus, show } from './helpers.js'

describe('dashboard link form sections', () => {
  let t: TestApp
  let alice: FormClient
  let csrf: string

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
    csrf = csrfOf((await alice.get('/dashboard/links/new')).body)
  })
  afterAll(() => t.close())

  /** The `<details>` of a section: whether it is open and what its summary says. */
  function section(html: string, id: string): { open: boolean; state: string } {
    const found = new RegExp(
      `<details class="option" id="section-${id}"( open)?><summary><span class="option-name">[^<]*</span><span class="option-state" id="state-${id}"[^>]*>([^<]*)</span>`,
    ).exec(html)
    if (!found) throw new Error(`no section ${id}`)
    return { open: found[1] !== undefined, state: found[2]! }
  }

  it('shows the main fields first, the URL focused, and every other part closed', async () => {
    const res = await alice.get('/dashboard/links/new')
    expectStatus(res, 200)
    expect(res.body).toMatch(/<input type="text" inputmode="url" id="url" name="url"[^>]*autofocus/)
    const order = ['id="url"', 'id="domain_id"', 'id="alias"', 'id="title"', 'id="section-access"']
    const at = order.map((s) => res.body.indexOf(s))
    expect(at.every((n, i) => n > 0 && (i === 0 || n > at[i - 1]!))).toBe(true)
    expect(section(res.body, 'access')).toEqual({ open: false, state: 'No password · Active' })
    expect(section(res.body, 'statistics')).toEqual({ open: false, state: 'Public' })
    expect(section(res.body, 'expiry')).toEqual({ open: false, state: 'Never expires' })
    expect(section(res.body, 'targeting')).toEqual({
      open: false,
      state: 'Off: always the destination URL',
    })
    expect(section(res.body, 'organise')).toEqual({
      open: false,
      state: 'No space · No tags · No pixels',
    })
    expect(res.body).toContain('Leave it empty for a random one.')
    expect(res.body).not.toContain('Empty: a random one.')
  })

  it('says what is set in the summaries of a stored link', async () => {
    const space = await createSpace(t, { name: 'Launch' })
    const made = await t.call('POST', `${API}/links`, {
      json: {
        url: 'https://example.org/summaries',
        alias: 'summaries',
        password: 'secret',
        privacy: 2,
        privacy_password: 'stats',
        expiration_date: '2099-12-03',
        expiration_time: '18:00',
        expiration_clicks: 100,
        target_type: 1,
        country: [
          { key: 'FR', value: 'https://example.fr' },
          { key: 'DE', value: 'https://example.de' },
        ],
        space_id: space.id,
      },
    })
    expectStatus(made, 201)
    const link = (made.json() as { data: { id: number } }).data
    const res = await alice.get(`/dashboard/links/${link.id}`)
    expectStatus(res, 200)
    expect(res.body).not.toMatch(/id="url"[^>]*autofocus/)
    expect(section(res.body, 'access').state).toBe('Password set · Active')
    expect(section(res.body, 'statistics').state).toBe('With a password')
    expect(section(res.body, 'expiry').state).toBe('Expires 3 Dec 2099, 18:00 or after 100 clicks')
    expect(section(res.body, 'targeting').state).toBe('Countries: 2 rules')
    expect(section(res.body, 'organise').state).toBe('Space: Launch · No tags · No pixels')
  })

  it('opens the section of a refused field, with the message in its words', async () => {
    const res = await alice.post('/dashboard/links/new', {
      _csrf: csrf,
      url: 'https://example.org/x',
      domain_id: String(t.defaultDomainId),
      privacy: '2',
      expiration_clicks: 'ten',
    })
    expectStatus(res, 422)
    expect(section(res.body, 'statistics').open).toBe(true)
    expect(section(res.body, 'expiry').open).toBe(true)
    expect(section(res.body, 'access').open).toBe(false)
    expect(res.body).toContain(
      '<p class="field-error" id="privacy_password-error">Fill in “Statistics password”: only people who know it can see the statistics.</p>',
    )
    expect(res.body).toContain(
      '<p class="field-error" id="expiration_clicks-error">“Expires after this many clicks” must be a whole number, such as 100.</p>',
    )
  })

  it('adds https:// to a destination typed without a scheme', async () => {
    const res = await alice.post('/dashboard/links/new', {
      _csrf: csrf,
      url: 'example.org/no-scheme',
      domain_id: String(t.defaultDomainId),
      alias: 'no-scheme',
    })
    expectStatus(res, 303)
    const id = /\/dashboard\/links\/(\d+)\?created/.exec(res.headers.location as string)![1]
    expect((await show(t, `links/${id}`)).url).toBe('https://example.org/no-scheme')
    // The API itself stays strict.
    const api = await t.call('POST', `${API}/links`, { form: { url: 'example.org/api' } })
    expectStatus(api, 422)
  })

  it('asks before saving an expiry that has passed, and saves it once confirmed', async () => {
    const form = {
      _csrf: csrf,
      url: 'https://example.org/past',
      domain_id: String(t.defaultDomainId),
      alias: 'born-expired',
      expiration_date: '2020-01-01',
      expiration_time: '10:00',
    }
    const asked = await alice.post('/dashboard/links/new', form)
    expectStatus(asked, 422)
    expect(asked.body).toContain('This date and time have passed')
    expect(asked.body).toContain('name="_past_expiry" value="1"')
    expect(section(asked.body, 'expiry').open).toBe(true)
    const list = await t.call('GET', `${API}/links?search=born-expired&search_by=alias`)
    expect((list.json() as { data: unknown[] }).data).toEqual([])

    const saved = await alice.post('/dashboard/links/new', { ...form, _past_expiry: '1' })
    expectStatus(saved, 303)
    const id = /\/dashboard\/links\/(\d+)\?created/.exec(saved.headers.location as string)![1]
    const record = await show(t, `links/${id}`)
    expect(record.ends_at).toBe('2020-01-01T10:00:00.000000Z')

    // Saving the link again with its stored (past) expiry does not ask again.
    const edit = await alice.post(`/dashboard/links/${id}`, {
      _csrf: csrf,
      url: 'https://example.org/past-2',
      expiration_date: '2020-01-01',
      expiration_time: '10:00',
    })
    expectStatus(edit, 303)
    // A new past date on the edit form does.
    const moved = await alice.post(`/dashboard/links/${id}`, {
      _csrf: csrf,
      url: 'https://example.org/past-3',
      expiration_date: '2021-01-01',
      expiration_time: '10:00',
    })
    expectStatus(moved, 422)
    expect((await show(t, `links/${id}`)).url).toBe('https://example.org/past-2')
  })
})
