/**
 * X-Forwarded-Host, -Proto and -For are believed only from a trusted proxy (TRUST_PROXY), on the
 * redirect fast path and on the framework's routes alike. The server trusts 127.0.0.2; the same
 * requests are sent from 127.0.0.1 (any client) and from 127.0.0.2 (the proxy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BROWSER_UA, startServer, type RequestOptions, type TestServer } from '../support/server.js'

const PROXY = '127.0.0.2'
let s: TestServer

beforeAll(async () => {
  s = await startServer({ TRUST_PROXY: PROXY })
  const domain = await s.api('POST', '/domains', {
    name: 'a.example.com',
    index_page: 'https://a.example/home',
  })
  expect(domain.status).toBe(201)
  const domainId = (domain.json as { data: { id: number } }).data.id
  for (const [domain_id, url] of [
    [1, 'https://default.example/'],
    [domainId, 'https://a.example/'],
  ] as const) {
    const link = await s.api('POST', '/links', { url, domain_id, alias: 'shared' })
    expect(link.status).toBe(201)
  }
})
afterAll(() => s.stop())

const from = (localAddress: string, headers: Record<string, string>): RequestOptions => ({
  localAddress,
  headers: { 'user-agent': BROWSER_UA, ...headers },
})

describe('forwarded headers', () => {
  it('picks the domain of a short link from X-Forwarded-Host only when the proxy sent it', async () => {
    const forwarded = { 'x-forwarded-host': 'a.example.com' }
    const direct = await s.send('/shared', from('127.0.0.1', forwarded))
    expect(direct.status).toBe(302)
    expect(direct.headers.location).toBe('https://default.example/')
    const proxied = await s.send('/shared', from(PROXY, forwarded))
    expect(proxied.status).toBe(302)
    expect(proxied.headers.location).toBe('https://a.example/')
    // The last value is the one the nearest proxy wrote.
    const chained = await s.send(
      '/shared',
      from(PROXY, { 'x-forwarded-host': 'short.test, a.example.com' }),
    )
    expect(chained.headers.location).toBe('https://a.example/')
  })

  it('picks the domain of a framework route from X-Forwarded-Host only when the proxy sent it', async () => {
    const forwarded = { 'x-forwarded-host': 'a.example.com' }
    const direct = await s.send('/', from('127.0.0.1', forwarded))
    expect(direct.headers.location).not.toBe('https://a.example/home')
    const proxied = await s.send('/', from(PROXY, forwarded))
    expect(proxied.status).toBe(302)
    expect(proxied.headers.location).toBe('https://a.example/home')
  })

  it('sends Strict-Transport-Security for X-Forwarded-Proto: https only when the proxy sent it', async () => {
    const https = { 'x-forwarded-proto': 'https' }
    for (const path of ['/shared', '/missing-page', '/api/v1/links']) {
      const direct = await s.send(path, from('127.0.0.1', https))
      expect(direct.headers['strict-transport-security'], path).toBeUndefined()
      expect(direct.headers['x-content-type-options'], path).toBe('nosniff')
      const proxied = await s.send(path, from(PROXY, https))
      expect(proxied.headers['strict-transport-security'], path).toBe('max-age=31536000')
      expect(proxied.headers['x-content-type-options'], path).toBe('nosniff')
      const plain = await s.send(path, from(PROXY, { 'x-forwarded-proto': 'http' }))
      expect(plain.headers['strict-transport-security'], path).toBeUndefined()
    }
  })

  it('counts a client by its own address whatever X-Forwarded-For it sends', async () => {
    // Unknown aliases are limited to 100 a minute per visitor: a new X-Forwarded-For on each
    // request does not make a new visitor of a client that is not the proxy.
    let status = 0
    for (let i = 0; i <= 100 && status !== 429; i++) {
      const headers = { 'x-forwarded-for': `192.0.2.${i}` }
      status = (await s.send(`/none-${i}`, from('127.0.0.1', headers))).status
    }
    expect(status).toBe(429)
    // Through the proxy, the forwarded address is the visitor.
    const proxied = await s.send('/none-y', from(PROXY, { 'x-forwarded-for': '192.0.2.250' }))
    expect(proxied.status).toBe(404)
  })
})
