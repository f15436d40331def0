/**
 * The first user, as the service makes it on an empty database (`admin@localhost`), can save
 * its own profile: the email check takes the address the service chose.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { API, expectStatus } from './helpers.js'

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
      '<p class="field-error" id="email-error">The email field must be a valid email address.</p>',
    )
  })
})
