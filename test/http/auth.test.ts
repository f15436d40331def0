/** Authentication: a Bearer key in the Authorization header, and nowhere else. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY_A, KEY_B, createTestApp, type TestApp } from '../support/app.js'
import { API, UNAUTHENTICATED, expectStatus, jsonContentType } from './helpers.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

function expect401(res: Awaited<ReturnType<TestApp['call']>>): void {
  expectStatus(res, 401)
  expect(res.headers['www-authenticate']).toBe('Bearer')
  jsonContentType(res)
  expect(res.json()).toEqual(UNAUTHENTICATED)
}

const ENDPOINTS: [string, string][] = [
  ['GET', '/links'],
  ['POST', '/links'],
  ['GET', '/links/1'],
  ['PUT', '/links/1'],
  ['PATCH', '/links/1'],
  ['DELETE', '/links/1'],
  ['GET', '/pixels'],
  ['POST', '/pixels'],
  ['GET', '/pixels/1'],
  ['PUT', '/pixels/1'],
  ['PATCH', '/pixels/1'],
  ['DELETE', '/pixels/1'],
  ['GET', '/spaces'],
  ['POST', '/spaces'],
  ['GET', '/spaces/1'],
  ['PUT', '/spaces/1'],
  ['PATCH', '/spaces/1'],
  ['DELETE', '/spaces/1'],
  ['GET', '/domains'],
  ['POST', '/domains'],
  ['GET', '/domains/1'],
  ['PUT', '/domains/1'],
  ['PATCH', '/domains/1'],
  ['DELETE', '/domains/1'],
  ['GET', '/account'],
]

describe('missing key', () => {
  it.each(ENDPOINTS)('%s %s without a key is 401 with WWW-Authenticate: Bearer', async (m, p) => {
    const method = m as 'GET'
    const res = await t.call(method, `${API}${p}`, {
      key: null,
      ...(m === 'GET' || m === 'DELETE' ? {} : { form: { name: 'x' } }),
    })
    expect401(res)
  })

  it.each(['application/json', 'text/html', '*/*', 'text/plain', 'application/xml'])(
    'answers the JSON 401 whatever the Accept header (%s)',
    async (accept) => {
      expect401(await t.call('GET', `${API}/links`, { key: null, headers: { accept } }))
    },
  )

  it('answers the JSON 401 without any Accept header', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/links` })
    expect401(res)
  })

  it('checks the key before the body: a bad body without a key is still 401', async () => {
    const res = await t.call('POST', `${API}/links`, {
      key: null,
      form: '{not json',
      headers: { 'content-type': 'application/json' },
    })
    expect401(res)
  })
})

describe('wrong key', () => {
  it.each([
    ['an unknown key', 'Bearer test-key-user-x-0123456789'],
    ['a key with one character changed', `Bearer ${KEY_A.slice(0, -1)}X`],
    ['a prefix of a real key', `Bearer ${KEY_A.slice(0, 12)}`],
    ['a real key with a suffix', `Bearer ${KEY_A}x`],
    ['an empty bearer', 'Bearer '],
    ['the bare key without scheme', KEY_A],
    ['another scheme', `Token ${KEY_A}`],
    ['basic auth', `Basic ${Buffer.from(`${KEY_A}:`).toString('base64')}`],
    ['two keys', `Bearer ${KEY_A} ${KEY_B}`],
  ])('rejects %s with 401', async (_label, authorization) => {
    expect401(await t.call('GET', `${API}/links`, { key: null, headers: { authorization } }))
  })

  it('rejects a revoked key at once', async () => {
    const key = 'test-key-to-be-revoked-0123456789'
    await t.services.users.createUser({ email: 'revoked@example.com', apiKey: key })
    expectStatus(await t.call('GET', `${API}/links`, { key }), 200)
    await t.services.users.revokeKey(key)
    expect401(await t.call('GET', `${API}/links`, { key }))
    expect401(await t.call('POST', `${API}/pixels`, { key, form: { name: 'x' } }))
  })

  it('keeps the other keys of other users working after a revocation', async () => {
    const key = 'test-key-revoked-second-0123456789'
    await t.services.users.createUser({ email: 'revoked2@example.com', apiKey: key })
    await t.services.users.revokeKey(key)
    expectStatus(await t.call('GET', `${API}/links`, { key: KEY_B }), 200)
  })
})

describe('nowhere but the Authorization header', () => {
  it.each(['api_key', 'api_token', 'key', 'token', 'access_token'])(
    'does not authenticate a key in the query string (?%s=)',
    async (param) => {
      expect401(
        await t.call('GET', `${API}/links?${param}=${encodeURIComponent(KEY_A)}`, { key: null }),
      )
    },
  )

  it('does not authenticate a key in a cookie', async () => {
    expect401(
      await t.call('GET', `${API}/links`, {
        key: null,
        headers: { cookie: `api_key=${KEY_A}; token=${KEY_A}; api_token=${KEY_A}` },
      }),
    )
  })

  it('does not authenticate a key in the body', async () => {
    expect401(
      await t.call('POST', `${API}/spaces`, { key: null, form: { name: 'x', api_token: KEY_A } }),
    )
  })

  it('does not authenticate a key in another header', async () => {
    expect401(
      await t.call('GET', `${API}/links`, {
        key: null,
        headers: { 'x-api-key': KEY_A, 'x-auth-token': KEY_A },
      }),
    )
  })

  it('accepts the scheme name case-insensitively (bearer)', async () => {
    const res = await t.call('GET', `${API}/account`, {
      key: null,
      headers: { authorization: `bearer ${KEY_A}` },
    })
    expectStatus(res, 200)
    expect(res.json().data.id).toBe(t.userA)
  })
})
