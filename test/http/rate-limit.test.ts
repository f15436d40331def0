/** The per-key API rate limit: headers on every response, 429 over the limit, keys apart. */
import { afterEach, describe, expect, it } from 'vitest'
import { KEY_B, createTestApp, type TestApp } from '../support/app.js'
import { API, TOO_MANY, UNAUTHENTICATED, expectStatus, jsonContentType } from './helpers.js'

let apps: TestApp[] = []
afterEach(async () => {
  await Promise.all(apps.map((a) => a.close()))
  apps = []
})

async function limited(limit: number | '' = 3): Promise<TestApp> {
  const app = await createTestApp({ API_RATE_LIMIT: String(limit) })
  apps.push(app)
  return app
}

function expectLimitHeaders(
  res: Awaited<ReturnType<TestApp['call']>>,
  limit: number,
  remaining: number,
): void {
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit))
  expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining))
}

describe('API_RATE_LIMIT=3', () => {
  it('counts down X-RateLimit-Remaining, then answers 429 with Retry-After', async () => {
    const t = await limited()
    for (const remaining of [2, 1, 0]) {
      const res = await t.call('GET', `${API}/links`)
      expectStatus(res, 200)
      expectLimitHeaders(res, 3, remaining)
      expect(res.headers['retry-after']).toBeUndefined()
    }
    const over = await t.call('GET', `${API}/links`)
    expectStatus(over, 429)
    jsonContentType(over)
    expect(over.json()).toEqual(TOO_MANY)
    expectLimitHeaders(over, 3, 0)
    const retryAfter = Number(over.headers['retry-after'])
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
  })

  it('counts every kind of request and response of a key (store, 404, 422)', async () => {
    const t = await limited()
    const created = await t.call('POST', `${API}/spaces`, { form: { name: 'One' } })
    expectStatus(created, 201)
    expectLimitHeaders(created, 3, 2)
    const missing = await t.call('GET', `${API}/links/999999`)
    expectStatus(missing, 404)
    expectLimitHeaders(missing, 3, 1)
    const invalid = await t.call('GET', `${API}/links?sort=up`)
    expectStatus(invalid, 422)
    expectLimitHeaders(invalid, 3, 0)
    const over = await t.call('POST', `${API}/spaces`, { form: { name: 'Two' } })
    expectStatus(over, 429)
    expect(over.json()).toEqual(TOO_MANY)
  })

  it('refuses a write over the limit without performing it', async () => {
    const t = await limited(1)
    expectStatus(await t.call('GET', `${API}/spaces`), 200)
    expectStatus(await t.call('POST', `${API}/spaces`, { form: { name: 'Blocked' } }), 429)
    const rows = await t.services.db.kysely.selectFrom('spaces').select('id').execute()
    expect(rows).toEqual([])
  })

  it('limits each key separately: user B is unaffected by user A', async () => {
    const t = await limited()
    for (let i = 0; i < 4; i++) await t.call('GET', `${API}/links`)
    expectStatus(await t.call('GET', `${API}/links`), 429)
    const b = await t.call('GET', `${API}/links`, { key: KEY_B })
    expectStatus(b, 200)
    expectLimitHeaders(b, 3, 2)
  })

  it('puts the limit headers on 401 responses too', async () => {
    const t = await limited()
    const res = await t.call('GET', `${API}/links`, { key: null })
    expectStatus(res, 401)
    expect(res.json()).toEqual(UNAUTHENTICATED)
    expectLimitHeaders(res, 3, 2)
  })

  it('limits requests without a key per client address', async () => {
    const t = await limited()
    for (let i = 0; i < 3; i++)
      expectStatus(await t.call('GET', `${API}/links`, { key: null }), 401)
    const over = await t.call('GET', `${API}/links`, { key: null })
    expectStatus(over, 429)
    expect(over.json()).toEqual(TOO_MANY)
    expect(over.headers['retry-after']).toMatch(/^\d+$/)
    expectStatus(await t.call('GET', `${API}/links`), 200)
  })
})

describe('default limit', () => {
  it('allows 60 requests a minute per key when API_RATE_LIMIT is not set', async () => {
    const t = await limited('')
    const res = await t.call('GET', `${API}/account`)
    expectStatus(res, 200)
    expectLimitHeaders(res, 60, 59)
  })
})
