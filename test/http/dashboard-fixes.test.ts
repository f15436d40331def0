/**
 * Fixes the first users ran into: the first user, as the service makes it on an empty database
 * (`admin@localhost`), can save its own profile; a dashboard path that finds nothing answers a
 * dashboard page (the navigation and a way back), status 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { API, expectStatus } from './helpers.js'

const nav = '<nav aria-label="Dashboard" class="nav-wide">'

describe('the first user on the Account screen', () => {
  let t: TestApp
  let admin: FormClient
  let adminKey: string

  beforeAll(async () => {
    t = await createTestApp()
    const made = await t.services.users.createUser({ email: 'admin@localhost', name: 'Admin' })
    adminKey = made.apiKey
    await t.services.accounts.setPassword(made.user.id, 'admin password')
    admin = new FormClient(t.app)
    expectStatus(await admin.signIn('admin@localhost', 'admin password'), 303)
  })
  afterAll(() => t.close())

  it('saves the profile of admin@localhost with a time zone (303)', async () => {
    const page = await admin.get('/dashboard/account')
    const res = await admin.post('/dashboard/account/profile', {
      _csrf: csrfOf(page.body),
      name: 'Admin',
      email: 'admin@localhost',
      timezone: 'Europe/Paris',
    })
    expectStatus(res, 303)
    expect(res.headers.location).toBe('/dashboard/account?profile')
    const api = (await t.call('GET', `${API}/account`, { key: adminKey })).json() as {
      data: Record<string, unknown>
    }
    expect(api.data).toMatchObject({ email: 'admin@localhost', timezone: 'Europe/Paris' })
  })

  it('still refuses an address without an @ (422)', async () => {
    const page = await admin.get('/dashboard/account')
    const res = await admin.post('/dashboard/account/profile', {
      _csrf: csrfOf(page.body),
      name: 'Admin',
      email: 'admin.localhost',
      timezone: 'UTC',
    })
    expectStatus(res, 422)
    expect(res.body).toContain(
      '<p class="field-error" id="email-error">“Email” must be an email address, such as ada@example.org.</p>',
    )
  })
})

describe('dashboard 404 pages', () => {
  let t: TestApp
  let alice: FormClient

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
  })
  afterAll(() => t.close())

  it('an unknown link, an unknown path and an unknown import answer the dashboard’s own 404 page', async () => {
    for (const [path, back] of [
      ['/dashboard/links/9999', '<a href="/dashboard/links" id="not-found-back">Back to Links</a>'],
      ['/dashboard/links/9999/stats', '<a href="/dashboard/links">Your links</a>'],
      ['/dashboard/nothing-here', '<a href="/dashboard" id="not-found-back">Back to Overview</a>'],
      [
        '/dashboard/pixels/1/x/y',
        '<a href="/dashboard/pixels" id="not-found-back">Back to Pixels</a>',
      ],
      [
        '/dashboard/imports/9999',
        '<a href="/dashboard/imports" id="not-found-back">Back to Imports</a>',
      ],
    ] as const) {
      const res = await alice.get(path)
      expectStatus(res, 404)
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(res.body, path).toContain(nav)
      expect(res.body, path).toContain(back)
      // Not the visitors' page.
      expect(res.body, path).not.toContain('There is no link at this address.')
    }
  })

  it('a non-admin’s unknown admin path leads back to the Overview', async () => {
    await t.services.accounts.setPassword(t.userB, 'bob password')
    const bob = new FormClient(t.app, '192.0.2.11')
    expectStatus(await bob.signIn('b@example.com', 'bob password'), 303)
    const res = await bob.get('/dashboard/admin/nothing')
    expectStatus(res, 404)
    expect(res.body).toContain('<a href="/dashboard" id="not-found-back">Back to Overview</a>')
    expect(res.body).not.toContain('href="/dashboard/admin"')
  })

  it('an unknown dashboard path sends someone not signed in to sign in first', async () => {
    const res = await new FormClient(t.app, '192.0.2.77').get('/dashboard/nothing-here')
    expectStatus(res, 303)
    expect(res.headers.location).toBe('/login')
  })
})
