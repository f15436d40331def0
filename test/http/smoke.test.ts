import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('account', () => {
  it('shows the account of the key with the default domain id', async () => {
    const res = await t.call('GET', '/api/v1/account')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      data: {
        id: t.userA,
        name: 'Alice',
        email: 'a@example.com',
        timezone: 'UTC',
        default_domain: t.defaultDomainId,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
      },
      status: 200,
    })
  })

  it('answers 401 with WWW-Authenticate without a key', async () => {
    const res = await t.call('GET', '/api/v1/account', { key: null })
    expect(res.statusCode).toBe(401)
    expect(res.headers['www-authenticate']).toBe('Bearer')
    expect(res.json()).toEqual({ message: 'Unauthenticated.', status: 401 })
  })
})
