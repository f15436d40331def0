import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BROWSER_UA, eventually, startServer, type TestServer } from '../support/server.js'

let s: TestServer
let linkId: number

beforeAll(async () => {
  s = await startServer({ TRUST_PROXY: 'true' })
  const res = await s.api('POST', '/links', {
    url: 'https://example.com/ok',
    domain_id: 1,
    alias: 'target',
  })
  linkId = (res.json as { data: { id: number } }).data.id
})
afterAll(() => s.stop())

async function clicks(): Promise<number> {
  return ((await s.api('GET', `/links/${linkId}`)).json as { data: { clicks: number } }).data.clicks
}

/** Sends raw bytes and returns the status line (for requests no HTTP client would send). */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(s.port, '127.0.0.1', () => socket.end(text))
    let out = ''
    socket.on('data', (d) => (out += d.toString('latin1')))
    socket.on('end', () => resolve(out.split('\r\n')[0] ?? ''))
    socket.on('error', reject)
  })
}

describe('hostile requests get a clean 4xx, never a 500, and are never counted', () => {
  it.each([
    ['a huge path', `/${'a'.repeat(3000)}`, 414],
    ['a long alias-like path', `/${'a'.repeat(300)}`, 404],
    ['nested paths', '/target/x/y', 404],
    ['a percent-encoded traversal', '/..%2f..%2fetc%2fpasswd', 404],
    ['invalid percent-encoding', '/%zz', 400],
    ['a stray + in the middle', '/tar+get', 404],
    ['an encoded null byte', '/target%00', 404],
    ['unicode', '/%E2%98%83', 404],
  ])('%s', async (_name, path, status) => {
    const res = await s.send(path, { headers: { 'user-agent': BROWSER_UA } })
    expect(res.status).toBe(status)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
  })

  it.each([
    ['an absurdly long Host', 'h'.repeat(5000)],
    ['a Host with odd characters', 'short.test\\@evil'],
    ['an IPv6 literal Host', '[::1]:8080'],
    ['an empty Host', ''],
  ])('%s', async (_name, host) => {
    const res = await s.send('/target', { host, headers: { 'user-agent': BROWSER_UA } })
    expect([400, 404]).toContain(res.status)
  })

  it('answers a request without any Host header with 400', async () => {
    expect(await raw('GET /target HTTP/1.1\r\nConnection: close\r\n\r\n')).toBe(
      'HTTP/1.1 400 Bad Request',
    )
  })

  it('answers headers over the size limit with 431', async () => {
    const res = await s.send('/target', {
      headers: { 'user-agent': BROWSER_UA, 'x-big': 'x'.repeat(20000) },
    })
    expect(res.status).toBe(431)
  })

  it('copes with hostile User-Agent, Accept-Language, Referer, X-Forwarded-For and Cookie values', async () => {
    const before = await clicks()
    const hostile: Record<string, string>[] = [
      { 'user-agent': 'x'.repeat(8000) },
      { 'user-agent': BROWSER_UA, 'accept-language': `${'en;q=0.5,'.repeat(800)}` },
      { 'user-agent': BROWSER_UA, 'accept-language': ';;;q=abc,,,*;q=-1' },
      { 'user-agent': BROWSER_UA, referer: 'javascript:alert(1)' },
      { 'user-agent': BROWSER_UA, referer: 'x'.repeat(8000) },
      { 'user-agent': BROWSER_UA, 'x-forwarded-for': 'not-an-ip, also-not' },
      {
        'user-agent': BROWSER_UA,
        'x-forwarded-for': Array.from({ length: 300 }, () => '1.2.3.4').join(','),
      },
      { 'user-agent': BROWSER_UA, cookie: 'a'.repeat(7000) },
      { 'user-agent': BROWSER_UA, cookie: '=;=;;slink_pw_1=%%%' },
    ]
    for (const headers of hostile) {
      const res = await s.send('/target', { headers })
      expect(res.status, JSON.stringify(headers).slice(0, 60)).toBe(302)
      expect(res.headers.location).toBe('https://example.com/ok')
    }
    // Eight real browser visits (the first hostile one has no browser User-Agent: a bot, not counted).
    expect(await eventually(clicks, (n) => n === before + 8)).toBe(before + 8)
  })

  it('does not count failed lookups and answers unknown aliases with 429 after 100 a minute per visitor', async () => {
    const headers = { 'user-agent': BROWSER_UA, 'x-forwarded-for': '192.0.2.200' }
    for (let i = 0; i < 100; i++)
      expect((await s.send(`/missing-${i}`, { headers })).status).toBe(404)
    const blocked = await s.send('/missing-x', { headers })
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    expect(blocked.body).toContain('Too many addresses')
    // Existing links still work for that visitor; other visitors are unaffected.
    expect((await s.send('/target', { headers })).status).toBe(302)
    const other = { 'user-agent': BROWSER_UA, 'x-forwarded-for': '192.0.2.201' }
    expect((await s.send('/missing-y', { headers: other })).status).toBe(404)
  })

  it('answers unexpected methods on short links without touching the link', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const res = await s.send('/target', { method, headers: { 'user-agent': BROWSER_UA } })
      expect(res.status, method).toBe(404)
    }
  })
})
