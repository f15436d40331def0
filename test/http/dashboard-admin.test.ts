/**
 * The dashboard's Admin screen: administrators only (403 pages for anyone else, GET and POST),
 * new users with a one-time password link, disable and enable (a disabled user's sessions end,
 * their keys stop and their one-time links are refused and cancelled), roles (never one's own),
 * new password links, and the global domains.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { API, createDomain, expectStatus } from './helpers.js'

describe('dashboard admin', () => {
  let t: TestApp
  let admin: FormClient
  let bob: FormClient

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    await t.services.accounts.setPassword(t.userB, 'bob password 1')
    admin = new FormClient(t.app)
    bob = new FormClient(t.app, '192.0.2.11')
    expectStatus(await admin.signIn('a@example.com', 'alice password'), 303)
    expectStatus(await bob.signIn('b@example.com', 'bob password 1'), 303)
  })
  afterAll(() => t.close())

  const token = async (client = admin) => csrfOf((await client.get('/dashboard/account')).body)
  const userRow = async (id: number) =>
    new RegExp(`<tr id="user-${id}">(.*?)</tr>`).exec(
      (await admin.get('/dashboard/admin')).body,
    )?.[1] ?? ''

  it('lists the users with their actions, none against oneself', async () => {
    const res = await admin.get('/dashboard/admin')
    expectStatus(res, 200)
    const self = await userRow(t.userA)
    expect(self).toContain('<span class="muted">You</span>')
    expect(self).not.toContain('/disable')
    const other = await userRow(t.userB)
    expect(other).toContain(`action="/dashboard/admin/users/${t.userB}/disable"`)
    expect(other).toContain('<input type="hidden" name="role" value="admin"/>')
    expect(other).toContain(`action="/dashboard/admin/users/${t.userB}/reset-link"`)
  })

  it('refuses everyone else with a 403 page, for every GET and POST', async () => {
    const csrf = await token(bob)
    for (const path of [
      '/dashboard/admin',
      '/dashboard/admin/users/new',
      '/dashboard/admin/domains',
      '/dashboard/admin/domains/new',
      `/dashboard/admin/domains/${t.defaultDomainId}/edit`,
    ]) {
      const res = await bob.get(path)
      expectStatus(res, 403)
      expect(res.body).toContain('<h1>Not allowed</h1>')
    }
    for (const path of [
      '/dashboard/admin/users',
      `/dashboard/admin/users/${t.userA}/disable`,
      `/dashboard/admin/users/${t.userA}/role`,
      `/dashboard/admin/users/${t.userB}/role`,
      `/dashboard/admin/users/${t.userA}/reset-link`,
      '/dashboard/admin/domains',
      `/dashboard/admin/domains/${t.defaultDomainId}/delete`,
    ]) {
      const res = await bob.post(path, {
        _csrf: csrf,
        role: 'admin',
        email: 'x@example.com',
        name: 'X',
        index_page: '',
        not_found_page: '',
      })
      expectStatus(res, 403)
      expect(res.body).toContain('<h1>Not allowed</h1>')
    }
    expect((await t.services.accounts.findUser(t.userB))?.role).toBe('user')
    expect((await t.services.accounts.findUser(t.userA))?.disabled).toBe(0)
  })

  it('creates a user and shows a one-time link that lets them set a password', async () => {
    const res = await admin.post('/dashboard/admin/users', {
      _csrf: await token(),
      email: 'carol@example.com',
      name: 'Carol <i>',
      role: 'user',
    })
    expectStatus(res, 200)
    expect(res.body).toContain('<strong id="link-email">carol@example.com</strong>')
    const link =
      /<input id="password-link" type="text" readonly value="http:\/\/short\.test(\/password\/[A-Za-z0-9_-]{43})"/.exec(
        res.body,
      )?.[1]
    expect(link).toBeDefined()
    const carol = new FormClient(t.app, '192.0.2.12')
    const set = await carol.submit(link!, link!, {
      password: 'carol password',
      password_confirmation: 'carol password',
    })
    expectStatus(set, 303)
    expect(set.headers.location).toBe('/dashboard')
    expect((await carol.get('/dashboard')).body).toContain('Carol &lt;i>')
    const users = (await admin.get('/dashboard/admin')).body
    expect(users).toContain('<td>Carol &lt;i></td>')
  })

  it('refuses a bad new user with every message, keeping what was typed', async () => {
    const res = await admin.post('/dashboard/admin/users', {
      _csrf: await token(),
      email: 'nope',
      name: '',
      role: 'root',
    })
    expectStatus(res, 422)
    expect(res.body).toContain(
      '<p class="field-error" id="email-error">“Email” must be an email address, such as ada@example.org.</p>',
    )
    expect(res.body).toContain('<p class="field-error" id="name-error">Fill in “Name”.</p>')
    expect(res.body).toContain(
      '<p class="field-error" id="role-error">Choose “Role” from the list.</p>',
    )
    expect(res.body).toContain('value="nope"')
    const taken = await admin.post('/dashboard/admin/users', {
      _csrf: await token(),
      email: 'B@EXAMPLE.com',
      name: 'Bob 2',
      role: 'user',
    })
    expectStatus(taken, 422)
    expect(taken.body).toContain(
      '<p class="field-error" id="email-error">“Email” is already taken: choose another.</p>',
    )
    expect(taken.body).toContain('value="Bob 2"')
  })

  it('disables a user: their sessions end and their keys stop; enabling lets them back', async () => {
    const other = new FormClient(t.app, '192.0.2.13')
    expectStatus(await other.signIn('b@example.com', 'bob password 1'), 303)
    expectStatus(await t.call('GET', `${API}/links`, { key: KEY_B }), 200)
    const res = await admin.post(`/dashboard/admin/users/${t.userB}/disable`, {
      _csrf: await token(),
    })
    expectStatus(res, 303)
    expect(res.headers.location).toBe('/dashboard/admin?done=disabled')
    expect(await userRow(t.userB)).toContain('<td data-label="Status">disabled</td>')
    expect((await other.get('/dashboard')).headers.location).toBe('/login')
    expectStatus(await t.call('GET', `${API}/links`, { key: KEY_B }), 401)
    expectStatus(
      await new FormClient(t.app, '192.0.2.14').signIn('b@example.com', 'bob password 1'),
      422,
    )

    const back = await admin.post(`/dashboard/admin/users/${t.userB}/enable`, {
      _csrf: await token(),
    })
    expectStatus(back, 303)
    expect(back.headers.location).toBe('/dashboard/admin?done=enabled')
    expectStatus(await t.call('GET', `${API}/links`, { key: KEY_B }), 200)
    expectStatus(await bob.signIn('b@example.com', 'bob password 1'), 303)
  })

  it("refuses a disabled user's one-time link; nothing made while disabled works once enabled", async () => {
    const carol = await t.services.accounts.createUser({
      email: 'carol-disabled@example.com',
      name: 'Carol',
      role: 'user',
    })
    const before = await t.services.accounts.issueToken(carol.id)
    const disable = await admin.post(`/dashboard/admin/users/${carol.id}/disable`, {
      _csrf: await token(),
    })
    expectStatus(disable, 303)
    // Disabling cancelled the link issued before.
    expectStatus(await new FormClient(t.app, '192.0.2.60').get(`/password/${before}`), 410)
    // A link issued while disabled is refused: a page that says so, no password, no session.
    const during = await t.services.accounts.issueToken(carol.id)
    const visitor = new FormClient(t.app, '192.0.2.61')
    const page = await visitor.get(`/password/${during}`)
    expectStatus(page, 403)
    expect(page.body).toContain('This account is disabled')
    const posted = await visitor.post(`/password/${during}`, {
      _csrf: csrfOf((await visitor.get('/login')).body),
      password: 'carol password',
      password_confirmation: 'carol password',
    })
    expectStatus(posted, 403)
    expect(posted.body).toContain('This account is disabled')
    expect(posted.headers['set-cookie']).toBeUndefined()
    expect(
      await t.services.accounts.verify('carol-disabled@example.com', 'carol password'),
    ).toBeNull()
    // A session made while disabled (as a link used at the moment of disabling could make one).
    const made = await t.services.sessions.start(carol.id)
    expect(await t.services.sessions.resume(made.id)).not.toBeNull()
    const enable = await admin.post(`/dashboard/admin/users/${carol.id}/enable`, {
      _csrf: await token(),
    })
    expectStatus(enable, 303)
    expectStatus(await visitor.get(`/password/${during}`), 410)
    expect(await t.services.sessions.resume(made.id)).toBeNull()
  })

  it('makes a user an admin after a confirmation, and back; never oneself', async () => {
    // "Make admin" first asks, changing nothing.
    const ask = await admin.post(`/dashboard/admin/users/${t.userB}/role`, {
      _csrf: await token(),
      role: 'admin',
    })
    expectStatus(ask, 200)
    expect(ask.body).toContain('<h1>Make this user an administrator?</h1>')
    expect(ask.body).toContain('<input type="hidden" name="confirm" value="1"/>')
    expect(ask.body).toContain('<a class="button secondary" href="/dashboard/admin">')
    expect(await t.services.accounts.findUser(t.userB)).toMatchObject({ role: 'user' })
    expectStatus(await bob.get('/dashboard/admin'), 403)
    const up = await admin.post(`/dashboard/admin/users/${t.userB}/role`, {
      _csrf: await token(),
      role: 'admin',
      confirm: '1',
    })
    expectStatus(up, 303)
    expect(up.headers.location).toBe('/dashboard/admin?done=role')
    expectStatus(await bob.get('/dashboard/admin'), 200)
    const down = await admin.post(`/dashboard/admin/users/${t.userB}/role`, {
      _csrf: await token(),
      role: 'user',
    })
    expectStatus(down, 303)
    expectStatus(await bob.get('/dashboard/admin'), 403)
    const odd = await admin.post(`/dashboard/admin/users/${t.userB}/role`, {
      _csrf: await token(),
      role: 'root',
    })
    expectStatus(odd, 404)
    for (const [action, role] of [
      ['role', 'user'],
      ['disable', ''],
    ] as const) {
      const self = await admin.post(`/dashboard/admin/users/${t.userA}/${action}`, {
        _csrf: await token(),
        role,
      })
      expectStatus(self, 403)
    }
    expect(await t.services.accounts.findUser(t.userA)).toMatchObject({
      role: 'admin',
      disabled: 0,
    })
  })

  it('makes a new password link for a user; an unknown user is a 404', async () => {
    const res = await admin.post(`/dashboard/admin/users/${t.userB}/reset-link`, {
      _csrf: await token(),
    })
    expectStatus(res, 200)
    expect(res.body).toContain('<h1>New password link</h1>')
    const link = /value="http:\/\/short\.test(\/password\/[A-Za-z0-9_-]{43})"/.exec(res.body)?.[1]
    expectStatus(await new FormClient(t.app, '192.0.2.15').get(link!), 200)
    for (const path of [
      '/dashboard/admin/users/999999/reset-link',
      '/dashboard/admin/users/abc/disable',
    ]) {
      expectStatus(await admin.post(path, { _csrf: await token() }), 404)
    }
  })

  it('refuses each admin form without its CSRF token, changing nothing', async () => {
    for (const path of [
      '/dashboard/admin/users',
      `/dashboard/admin/users/${t.userB}/disable`,
      `/dashboard/admin/users/${t.userB}/enable`,
      `/dashboard/admin/users/${t.userB}/role`,
      `/dashboard/admin/users/${t.userB}/reset-link`,
      '/dashboard/admin/domains',
      `/dashboard/admin/domains/${t.defaultDomainId}`,
      `/dashboard/admin/domains/${t.defaultDomainId}/delete`,
    ]) {
      const res = await admin.post(path, {
        role: 'admin',
        email: 'dave@example.com',
        name: 'Dave',
        index_page: '',
        not_found_page: '',
      })
      expectStatus(res, 403)
      expect(res.body).toContain('Form expired')
    }
    expect(await t.services.accounts.findUser(t.userB)).toMatchObject({ role: 'user', disabled: 0 })
    expect((await admin.get('/dashboard/admin')).body).not.toContain('dave@example.com')
  })

  describe('global domains', () => {
    it('lists only global domains; the default one is read-only', async () => {
      const own = await createDomain(t, { name: 'alice-own.example.com' })
      const res = await admin.get('/dashboard/admin/domains')
      expectStatus(res, 200)
      expect(res.body).not.toContain(`id="item-${own.id}"`)
      const row =
        new RegExp(`<tr id="item-${t.defaultDomainId}">.*?</tr>`).exec(res.body)?.[0] ?? ''
      expect(row).toContain('Read-only')
      const csrf = csrfOf(res.body)
      expectStatus(await admin.get(`/dashboard/admin/domains/${t.defaultDomainId}/edit`), 403)
      expectStatus(
        await admin.post(`/dashboard/admin/domains/${t.defaultDomainId}`, {
          _csrf: csrf,
          name: 'other.test',
        }),
        403,
      )
      expectStatus(
        await admin.post(`/dashboard/admin/domains/${t.defaultDomainId}/delete`, { _csrf: csrf }),
        403,
      )
      // A user's own domain is not one of these.
      expectStatus(await admin.get(`/dashboard/admin/domains/${own.id}/edit`), 404)
      expectStatus(
        await admin.post(`/dashboard/admin/domains/${own.id}/delete`, { _csrf: csrf }),
        404,
      )
    })

    it('creates, edits and deletes a global domain, which every user sees', async () => {
      const csrf = csrfOf((await admin.get('/dashboard/admin/domains/new')).body)
      const res = await admin.post('/dashboard/admin/domains', {
        _csrf: csrf,
        name: 'go.example.net',
        index_page: '',
        not_found_page: '',
      })
      expectStatus(res, 303)
      expect(res.headers.location).toBe('/dashboard/admin/domains?done=created')
      const listed = (
        await t.call('GET', `${API}/domains?search=go.example`, { key: KEY_B })
      ).json() as { data: { id: number; global: boolean }[] }
      expect(listed.data).toEqual([expect.objectContaining({ global: true })])
      const id = listed.data[0]!.id
      // Read-only for users.
      expectStatus(await bob.get(`/dashboard/domains/${id}/edit`), 403)
      const edit = await admin.post(`/dashboard/admin/domains/${id}`, {
        _csrf: csrf,
        name: 'go.example.net',
        index_page: 'https://example.net/',
        not_found_page: '',
      })
      expectStatus(edit, 303)
      expect(edit.headers.location).toBe('/dashboard/admin/domains?done=updated')
      const shown = (await t.call('GET', `${API}/domains/${id}`, { key: KEY_B })).json() as {
        data: { index_page: string }
      }
      expect(shown.data.index_page).toBe('https://example.net/')
      const bad = await admin.post(`/dashboard/admin/domains/${id}`, {
        _csrf: csrf,
        name: 'short.test',
        index_page: 'nope',
        not_found_page: '',
      })
      expectStatus(bad, 422)
      expect(bad.body).toContain('“Domain name” is already taken: choose another.')
      expect(bad.body).toContain(
        '“Index page” must be a web address, such as https://example.org/page.',
      )
      expectStatus(await admin.get(`/dashboard/admin/domains/${id}/delete`), 200)
      const gone = await admin.post(`/dashboard/admin/domains/${id}/delete`, { _csrf: csrf })
      expectStatus(gone, 303)
      expectStatus(await t.call('GET', `${API}/domains/${id}`, { key: KEY_B }), 404)
    })
  })
})
