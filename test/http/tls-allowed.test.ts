import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'
import { createTestApp, type TestApp } from '../support/app.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const ask = (
  app: TestApp,
  domain: string,
  options: { from?: string; forwardedFor?: string } = {},
) =>
  app.app.inject({
    method: 'GET',
    url: `/tls/allowed?domain=${encodeURIComponent(domain)}`,
    remoteAddress: options.from ?? '127.0.0.1',
    headers: options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {},
  })

describe('GET /tls/allowed (the TLS proxy asks before a certificate)', () => {
  it('answers 200 for the default domain, a global one and any user’s, in any case or IDNA form', async () => {
    await t.services.domains.create(null, { name: 'global.example.net' })
    const own = await t.call('POST', '/api/v1/domains', { form: { name: 'Bücher.example.org' } })
    expect(own.statusCode).toBe(201)
    const theirs = await t.call('POST', '/api/v1/domains', {
      form: { name: 'go.example.com' },
      key: 'test-key-user-b-0123456789',
    })
    expect(theirs.statusCode).toBe(201)
    for (const [domain, from] of [
      ['short.test', '127.0.0.1'],
      ['global.example.net', '::1'],
      ['GLOBAL.Example.NET', '127.0.0.1'],
      ['xn--bcher-kva.example.org', '127.0.0.1'],
      ['bücher.example.org', '::ffff:127.0.0.1'],
      ['go.example.com', '127.0.0.1'],
    ] as const) {
      const res = await ask(t, domain, { from })
      expect(res.statusCode, domain).toBe(200)
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.json()).toEqual({ domain, allowed: true })
    }
  })

  it('answers 404 for a name slink does not serve, or that is no host name', async () => {
    for (const domain of [
      'unknown.example.com',
      'example.com',
      'short.test:443',
      'https://go.example.com',
      'go.example.com/',
      '127.0.0.1',
      'x'.repeat(300),
    ]) {
      const res = await ask(t, domain)
      expect(res.statusCode, domain).toBe(404)
      expect(res.json()).toEqual({ domain, allowed: false })
    }
  })

  it('answers 404 once a domain is deleted', async () => {
    const created = await t.call('POST', '/api/v1/domains', { form: { name: 'gone.example.org' } })
    expect((await ask(t, 'gone.example.org')).statusCode).toBe(200)
    const id = (created.json() as { data: { id: number } }).data.id
    expect((await t.call('DELETE', `/api/v1/domains/${id}`)).statusCode).toBe(200)
    const res = await ask(t, 'gone.example.org')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ domain: 'gone.example.org', allowed: false })
  })

  it('wants one domain parameter (422 in the contract’s shape)', async () => {
    for (const [url, message] of [
      ['/tls/allowed', 'The domain field is required.'],
      ['/tls/allowed?domain=', 'The domain field is required.'],
      ['/tls/allowed?domain=a.com&domain=b.com', 'The domain field must be a string.'],
      ['/tls/allowed?domain[x]=a.com', 'The domain field must be a string.'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(422)
      expect(res.json()).toEqual({ message: { domain: [message] }, status: 422 })
    }
  })

  it('gives others, and requests relayed for others, the site’s plain 404 page', async () => {
    const notFound = await t.app.inject({
      method: 'GET',
      url: '/no-such-page',
      remoteAddress: '203.0.113.9',
    })
    expect(notFound.statusCode).toBe(404)
    for (const options of [
      { from: '203.0.113.9' },
      { from: '10.0.0.5' },
      { from: '127.0.0.1', forwardedFor: '203.0.113.9' },
      { from: '127.0.0.1', forwardedFor: '127.0.0.1, 203.0.113.9' },
    ]) {
      for (const url of ['/tls/allowed?domain=short.test', '/tls/allowed']) {
        const res = await t.app.inject({
          method: 'GET',
          url,
          remoteAddress: options.from,
          headers: options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {},
        })
        expect(res.statusCode, JSON.stringify(options)).toBe(404)
        expect(res.headers['content-type']).toBe(notFound.headers['content-type'])
        const page = (body: string) => body.replace(/nonce="[^"]+"/g, 'nonce=""')
        expect(page(res.body)).toBe(page(notFound.body))
      }
    }
    // A hop from loopback through loopback is still loopback.
    expect((await ask(t, 'short.test', { forwardedFor: '127.0.0.1' })).statusCode).toBe(200)
  })

  it('answers only the addresses of TLS_ASK_FROM when it is set', async () => {
    const other = await createTestApp({ TLS_ASK_FROM: '10.0.0.0/8, 192.0.2.7' })
    try {
      expect((await ask(other, 'short.test', { from: '10.1.2.3' })).statusCode).toBe(200)
      expect((await ask(other, 'short.test', { from: '192.0.2.7' })).statusCode).toBe(200)
      const loopback = await ask(other, 'short.test', { from: '127.0.0.1' })
      expect(loopback.statusCode).toBe(404)
      expect(loopback.headers['content-type']).toBe('text/html; charset=utf-8')
    } finally {
      await other.close()
    }
  })
})

describe('TLS_ASK_FROM', () => {
  it('defaults to loopback and reads a comma list of addresses and CIDRs', () => {
    expect(loadConfig({}).tlsAskFrom).toEqual(['loopback'])
    expect(loadConfig({ TLS_ASK_FROM: ' 10.0.0.0/8 ,::1,loopback' }).tlsAskFrom).toEqual([
      '10.0.0.0/8',
      '::1',
      'loopback',
    ])
  })

  it('refuses anything else with one line naming the variable', () => {
    for (const [raw, entry] of [
      ['caddy.internal', 'caddy.internal'],
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['127.0.0.1,,::1', ''],
    ]) {
      expect(() => loadConfig({ TLS_ASK_FROM: raw })).toThrow(
        new ConfigError(
          `TLS_ASK_FROM must be a comma list of addresses or CIDRs (or loopback), got "${entry}"`,
        ),
      )
    }
  })
})
