/**
 * Every answer carries `X-Content-Type-Options: nosniff`, and, when `PUBLIC_URL` is https (a TLS
 * proxy in front), `Strict-Transport-Security`: redirects, visitor pages, the API (records and
 * errors), the dashboard, the framework's own raw errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_KEY, BROWSER_UA, startServer, type TestServer } from '../support/server.js'

let s: TestServer

beforeAll(async () => {
  s = await startServer({ PUBLIC_URL: 'https://short.test' })
  const link = await s.api('POST', '/links', { url: 'https://example.com/', alias: 'go' })
  expect(link.status).toBe(201)
})
afterAll(() => s.stop())

const KEY = { authorization: `Bearer ${API_KEY}` }

describe('security headers of every answer', () => {
  it('sends nosniff and HSTS on redirects, pages, API answers, the dashboard and raw errors', async () => {
    const answers: [string, Record<string, string>, number][] = [
      ['/go', { 'user-agent': BROWSER_UA }, 302],
      ['/go+', {}, 200],
      ['/missing', { 'user-agent': BROWSER_UA }, 404],
      ['/api/v1/links', KEY, 200],
      ['/api/v1/links/1', KEY, 200],
      ['/api/v1/links', {}, 401],
      ['/api/v1/nothing-here', KEY, 404],
      [`/api/v1/links/${'9'.repeat(3000)}`, KEY, 414],
      ['/api/openapi.json', {}, 200],
      ['/health', {}, 200],
      ['/login', {}, 200],
      ['/dashboard', {}, 303],
    ]
    for (const [path, headers, status] of answers) {
      const res = await s.send(path, { headers })
      const name = path.slice(0, 40)
      expect(res.status, name).toBe(status)
      expect(res.headers['x-content-type-options'], name).toBe('nosniff')
      expect(res.headers['strict-transport-security'], name).toBe('max-age=31536000')
    }
  })
})
