/**
 * The dashboard's Account screen: profile changes with the API's messages, and API keys made
 * with a name (shown in full once, working with the API at once), listed with their first
 * characters and last use (written at most once a minute), revoked after a confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { API, expectStatus } from './helpers.js'

describe('dashboard account', () => {
  let t: TestApp
  let alice: FormClient
  let clock = Date.UTC(2026, 5, 1, 12)

  beforeAll(async () => {
    t = await createTestApp({}, { now: () => clock })
    await t.services.accounts.setPassword(t.userA, 'alice password')
    alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
  })
  afterAll(() => t.close())

  const token = async () => csrfOf((await alice.get('/dashboard/account')).body)
  const apiAs = (key: string) => t.call('GET', `${API}/account`, { key })
  const keyRow = (html: string, name: string) =>
    [...html.matchAll(/<tr id="key-(\d+)">(.*?)<\/tr>/g)].find((m) =>
      m[2]!.includes(`<td>${name}</td>`),
    )

  it('shows the profile form with every time zone and the keys made outside the dashboard', async () => {
    const res = await alice.get('/dashboard/account')
    expectStatus(res, 200)
    expect(res.body).toContain(
      '<form method="post" action="/dashboard/account/profile" novalidate>',
    )
    expect(res.body).toContain('<option value="UTC" selected>UTC</option>')
    expect(res.body).toContain('<option value="Europe/Paris">Europe/Paris</option>')
    // The test user's key was made like `slink user create` makes one.
    const row = keyRow(res.body, 'Command line')
    expect(row?.[2]).toContain('<code>test-key…</code>')
    expect(row?.[2]).toContain('<td class="nowrap" data-label="Last used">Never</td>')
    expect(res.body).not.toContain('test-key-user-a-0123456789')
  })

  it('saves name, email and time zone (303), and the API sees them', async () => {
    const res = await alice.post('/dashboard/account/profile', {
      _csrf: await token(),
      name: 'Alice <b>Liddell</b>',
      email: 'alice@example.org',
      timezone: 'Europe/Paris',
    })
    expectStatus(res, 303)
    expect(res.headers.location).toBe('/dashboard/account?email')
    const page = await alice.get('/dashboard/account?email')
    expect(page.body).toContain('Your profile was saved. A new email is used only if')
    expect(page.body).toContain('value="Alice &lt;b>Liddell&lt;/b>"')
    expect(page.body).toContain('<option value="Europe/Paris" selected>Europe/Paris</option>')
    const api = (await t.call('GET', `${API}/account`)).json() as { data: Record<string, unknown> }
    expect(api.data).toMatchObject({
      name: 'Alice <b>Liddell</b>',
      email: 'alice@example.org',
      timezone: 'Europe/Paris',
    })
    // The new email signs in.
    expect(await t.services.accounts.verify('alice@example.org', 'alice password')).not.toBeNull()
  })

  it('refuses a bad profile with every message at once, keeping what was typed', async () => {
    const res = await alice.post('/dashboard/account/profile', {
      _csrf: await token(),
      name: '',
      email: 'not an email',
      timezone: 'Mars/Olympus',
    })
    expectStatus(res, 422)
    expect(res.body).toContain('<p class="field-error" id="name-error">Fill in “Name”.</p>')
    expect(res.body).toContain(
      '<p class="field-error" id="email-error">“Email” must be an email address, such as ada@example.org.</p>',
    )
    expect(res.body).toContain(
      '<p class="field-error" id="timezone-error">Choose “Time zone” from the list.</p>',
    )
    expect(res.body).toContain('value="not an email"')
    expect(res.body).toContain('<option value="Mars/Olympus" selected>Mars/Olympus</option>')
    expect((await t.services.accounts.findUser(t.userA))?.email).toBe('alice@example.org')
  })

  it('answers a new email another account has exactly as a free one, and keeps it only when free', async () => {
    const change = (name: string, email: string) =>
      alice.post('/dashboard/account/profile', {
        _csrf: csrf,
        name,
        email,
        timezone: 'UTC',
      })
    const csrf = await token()
    const taken = await change('Alice Taken', 'B@example.com')
    const afterTaken = await t.services.accounts.findUser(t.userA)
    const free = await change('Alice Free', 'alice@example.net')
    const afterFree = await t.services.accounts.findUser(t.userA)
    for (const res of [taken, free]) {
      expectStatus(res, 303)
      expect(res.headers.location).toBe('/dashboard/account?email')
    }
    expect(free.body).toBe(taken.body)
    expect(Object.keys(free.headers).sort()).toEqual(Object.keys(taken.headers).sort())
    // The taken address stays the other account's; the rest of the form is saved.
    expect(afterTaken).toMatchObject({ name: 'Alice Taken', email: 'alice@example.org' })
    expect(afterFree).toMatchObject({ name: 'Alice Free', email: 'alice@example.net' })
    expect((await t.services.accounts.findUser(t.userB))?.email).toBe('b@example.com')
    const page = await alice.get('/dashboard/account?email')
    expect(page.body).toContain(
      'Your profile was saved. A new email is used only if no other account has it: the email shown here is the one you sign in with.',
    )
    // The same email again, or in another case, is no change.
    const same = await change('Alice <b>Liddell</b>', 'ALICE@example.net')
    expectStatus(same, 303)
    expect(same.headers.location).toBe('/dashboard/account?profile')
    expect(await t.services.accounts.verify('alice@example.net', 'alice password')).not.toBeNull()
  })

  it('makes a named key, shown once, that works with the API; its last use is shown', async () => {
    const res = await alice.post('/dashboard/account/keys', {
      _csrf: await token(),
      key_name: 'Deploy <script>',
    })
    expectStatus(res, 200)
    const key = /<input id="new-key" type="text" readonly value="([^"]+)"/.exec(res.body)?.[1]
    expect(key).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    expect(res.body).toContain('<h2 id="key-heading">Deploy &lt;script></h2>')
    expectStatus(await apiAs(key!), 200)

    const page = await alice.get('/dashboard/account')
    expect(page.body).not.toContain(key!)
    const row = keyRow(page.body, 'Deploy &lt;script>')
    expect(row?.[2]).toContain(`<code>${key!.slice(0, 12)}…</code>`)
    // The API call above wrote its use (without the request waiting for it).
    await expect
      .poll(
        async () => keyRow((await alice.get('/dashboard/account')).body, 'Deploy &lt;script>')?.[2],
      )
      .toContain('<td class="nowrap" data-label="Last used">2026-06-01 12:00 UTC</td>')
  })

  it('writes a key’s last use at most once a minute', async () => {
    const keyId = (await t.services.users.listKeys(t.userB))[0]!.id
    const lastUsed = async () =>
      (await t.services.users.listKeys(t.userB)).find((k) => k.id === keyId)?.last_used_at
    const start = clock
    expectStatus(await apiAs(KEY_B), 200)
    await expect.poll(lastUsed).toBe(start)
    clock = start + 59_000
    expectStatus(await apiAs(KEY_B), 200)
    // A marker: a new key's first use is written, after any write the request above started.
    const marker = await t.services.users.createKey('b@example.com', 'marker')
    const markerId = (await t.services.users.listKeys(t.userB)).find((k) => k.name === 'marker')!.id
    expectStatus(await apiAs(marker), 200)
    await expect
      .poll(
        async () =>
          (await t.services.users.listKeys(t.userB)).find((k) => k.id === markerId)?.last_used_at,
      )
      .toBe(start + 59_000)
    expect(await lastUsed()).toBe(start)
    await t.services.users.revokeOwnKey(t.userB, markerId)
    clock = start + 60_000
    expectStatus(await apiAs(KEY_B), 200)
    await expect.poll(lastUsed).toBe(start + 60_000)
    clock = start
  })

  it('refuses a key without a name or with a long one, with the messages', async () => {
    const empty = await alice.post('/dashboard/account/keys', {
      _csrf: await token(),
      key_name: '',
    })
    expectStatus(empty, 422)
    expect(empty.body).toContain(
      `<p class="field-error" id="key_name-error">Fill in “New key's name”.</p>`,
    )
    const long = await alice.post('/dashboard/account/keys', {
      _csrf: await token(),
      key_name: 'k'.repeat(65),
    })
    expectStatus(long, 422)
    expect(long.body).toContain("“New key's name” is too long: at most 64 characters.")
    expect(long.body).toContain(`value="${'k'.repeat(65)}"`)
  })

  it('revokes a key after a confirmation; the API refuses it at once', async () => {
    const made = await alice.post('/dashboard/account/keys', {
      _csrf: await token(),
      key_name: 'Old',
    })
    const key = /<input id="new-key" type="text" readonly value="([^"]+)"/.exec(made.body)![1]!
    const id = keyRow((await alice.get('/dashboard/account')).body, 'Old')![1]!
    const confirm = await alice.get(`/dashboard/account/keys/${id}/revoke`)
    expectStatus(confirm, 200)
    expect(confirm.body).toContain('<strong id="revoke-name">Old</strong>')
    const res = await alice.post(`/dashboard/account/keys/${id}/revoke`, {
      _csrf: csrfOf(confirm.body),
    })
    expectStatus(res, 303)
    expect(res.headers.location).toBe('/dashboard/account?revoked')
    expect((await alice.get('/dashboard/account?revoked')).body).toContain(
      'The API key was revoked.',
    )
    expectStatus(await apiAs(key), 401)
    // Revoked keys are not listed, and cannot be revoked twice.
    expect(keyRow((await alice.get('/dashboard/account')).body, 'Old')).toBeUndefined()
    expectStatus(await alice.get(`/dashboard/account/keys/${id}/revoke`), 404)
  })

  it('answers another user’s key with a 404 and leaves it working', async () => {
    const bobKey = (await t.services.users.listKeys(t.userB))[0]!.id
    const confirm = await alice.get(`/dashboard/account/keys/${bobKey}/revoke`)
    expectStatus(confirm, 404)
    const res = await alice.post(`/dashboard/account/keys/${bobKey}/revoke`, {
      _csrf: await token(),
    })
    expectStatus(res, 404)
    expectStatus(await apiAs(KEY_B), 200)
  })

  it('refuses each form without its CSRF token with a 403, changing nothing', async () => {
    const keyId = (await t.services.users.listKeys(t.userA))[0]!.id
    for (const [path, form] of [
      ['/dashboard/account/profile', { name: 'Mallory', email: 'm@example.com', timezone: 'UTC' }],
      ['/dashboard/account/keys', { key_name: 'Stolen' }],
      [`/dashboard/account/keys/${keyId}/revoke`, {}],
      [
        '/dashboard/account/password',
        { current_password: 'x', password: 'y', password_confirmation: 'y' },
      ],
    ] as const) {
      const res = await alice.post(path, { ...form })
      expectStatus(res, 403)
      expect(res.body).toContain('Form expired')
    }
    expect((await t.services.accounts.findUser(t.userA))?.name).toBe('Alice <b>Liddell</b>')
    expect((await t.services.users.listKeys(t.userA)).map((k) => k.name)).not.toContain('Stolen')
    expect((await t.services.users.listKeys(t.userA)).map((k) => k.id)).toContain(keyId)
  })
})
