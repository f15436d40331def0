import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BROWSER_UA, eventually, startServer, type TestServer } from '../support/server.js'

let s: TestServer
let nextAlias = 0

beforeAll(async () => {
  s = await startServer()
})
afterAll(() => s.stop())

async function link(form: Record<string, string | number> = {}) {
  const alias = `step${nextAlias++}`
  const res = await s.api('POST', '/links', {
    url: 'https://example.com/landing',
    domain_id: 1,
    alias,
    ...form,
  })
  expect(res.status).toBe(201)
  return { alias, id: (res.json as { data: { id: number } }).data.id }
}

async function clicksOf(id: number): Promise<number> {
  const res = await s.api('GET', `/links/${id}`)
  return (res.json as { data: { clicks: number } }).data.clicks
}

const visit = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  s.send(path, { method, headers: { 'user-agent': BROWSER_UA, ...headers } })

/**
 * The clicks of link `id` counted before now. A browser visit to `alias` (a marker) goes
 * first; clicks are written in order, so once the marker is counted, everything recorded
 * before it is too. The marker itself is left out.
 */
async function clicksBeforeMarker(alias: string, id: number): Promise<number> {
  expect((await visit(`/${alias}`)).status).toBe(302)
  const withMarker = await eventually(
    () => clicksOf(id),
    (n) => n >= 1,
  )
  return withMarker - 1
}

describe('step 9: the plain redirect', () => {
  it('answers 302 with Location and Cache-Control: no-store', async () => {
    const { alias } = await link()
    const res = await visit(`/${alias}`)
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('https://example.com/landing')
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.body).toBe('')
  })

  it('merges the query: incoming parameters win, the rest of the destination is kept', async () => {
    const { alias } = await link({
      url: 'https://example.com:8443/p/a?utm_source=mail&keep=%7Esame#section',
    })
    const res = await visit(`/${alias}?utm_source=short&extra=1&extra=2`)
    expect(res.headers.location).toBe(
      'https://example.com:8443/p/a?keep=%7Esame&utm_source=short&extra=1&extra=2#section',
    )
  })

  it('finds the domain by host name, whatever the port and case', async () => {
    const { alias } = await link()
    for (const host of ['short.test:8080', 'SHORT.test', 'short.test.']) {
      const res = await s.send(`/${alias}`, { host, headers: { 'user-agent': BROWSER_UA } })
      expect(res.status, host).toBe(302)
    }
  })

  it('answers 404 with the not-found page on an unknown host', async () => {
    const { alias } = await link()
    const res = await s.send(`/${alias}`, {
      host: 'other.test',
      headers: { 'user-agent': BROWSER_UA },
    })
    expect(res.status).toBe(404)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.body).toContain('Link not found')
  })
})

describe('step 1: unknown alias', () => {
  it('shows a 404 page', async () => {
    const res = await visit('/no-such-alias')
    expect(res.status).toBe(404)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'nonce-[A-Za-z0-9+/=]+';/,
    )
    expect(res.body).toContain('There is no link at this address.')
  })

  it("redirects (302) to the domain's not_found_page when it has one", async () => {
    const created = await s.api('POST', '/domains', {
      name: 'own.test',
      not_found_page: 'https://example.com/missing',
    })
    expect(created.status).toBe(201)
    const res = await s.send('/nothing-here', {
      host: 'own.test',
      headers: { 'user-agent': BROWSER_UA },
    })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('https://example.com/missing')
  })
})

describe('step 2: disabled', () => {
  it('shows the link-disabled page with 404', async () => {
    const { alias, id } = await link({ disabled: 1 })
    const res = await visit(`/${alias}`)
    expect(res.status).toBe(404)
    expect(res.body).toContain('This link has been disabled by its owner.')
    expect(res.body).not.toContain('example.com/landing')
    expect((await s.api('PATCH', `/links/${id}`, { disabled: 0 })).status).toBe(200)
    expect(await clicksBeforeMarker(alias, id)).toBe(0)
  })
})

describe('step 3: expired', () => {
  it('by date, with an expiration_url: 302 there', async () => {
    const { alias } = await link({
      expiration_date: '2020-01-01',
      expiration_time: '00:00',
      expiration_url: 'https://example.com/over',
    })
    const res = await visit(`/${alias}`)
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('https://example.com/over')
  })

  it('by date, without an expiration_url: the link-expired page with 410', async () => {
    const { alias } = await link({ expiration_date: '2020-01-01', expiration_time: '00:00' })
    const res = await visit(`/${alias}`)
    expect(res.status).toBe(410)
    expect(res.body).toContain('This link has expired')
  })

  it('by clicks: exactly N visitors get through, the next one is expired', async () => {
    const { alias, id } = await link({
      expiration_clicks: 3,
      expiration_url: 'https://example.com/sold-out',
    })
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push((await visit(`/${alias}`)).headers.location)
    expect(statuses).toEqual([
      'https://example.com/landing',
      'https://example.com/landing',
      'https://example.com/landing',
      'https://example.com/sold-out',
      'https://example.com/sold-out',
    ])
    expect(await clicksOf(id)).toBe(3)
  })

  it('comes before the password step', async () => {
    const { alias } = await link({
      password: 'secret',
      expiration_date: '2020-01-01',
      expiration_time: '00:00',
    })
    expect((await visit(`/${alias}`)).status).toBe(410)
  })
})

describe('step 5: bots and HEAD', () => {
  it('sends bots to the main URL, ignoring targeting, and does not count them', async () => {
    const { alias, id } = await link({
      target_type: 4,
      'rotation[0][value]': 'https://example.com/b',
    })
    const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
    for (let i = 0; i < 3; i++) {
      const res = await visit(`/${alias}`, { 'user-agent': googlebot })
      expect(res.status).toBe(302)
      expect(res.headers.location).toBe('https://example.com/landing')
    }
    expect(await clicksBeforeMarker(alias, id)).toBe(0)
  })

  it('answers HEAD with the main URL and counts nothing', async () => {
    const { alias, id } = await link({ 'pixel_ids[]': '' })
    const res = await visit(`/${alias}`, {}, 'HEAD')
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('https://example.com/landing')
    expect(await clicksBeforeMarker(alias, id)).toBe(0)
  })

  it('does not let HEAD use up a click limit', async () => {
    const { alias } = await link({ expiration_clicks: 1 })
    for (let i = 0; i < 3; i++) expect((await visit(`/${alias}`, {}, 'HEAD')).status).toBe(302)
    expect((await visit(`/${alias}`)).status).toBe(302)
    expect((await visit(`/${alias}`)).status).toBe(410)
  })
})

describe('step 6: counting', () => {
  it('counts every browser visit into clicks within a second', async () => {
    const { alias, id } = await link()
    for (let i = 0; i < 7; i++) await visit(`/${alias}`)
    expect(
      await eventually(
        () => clicksOf(id),
        (n) => n === 7,
      ),
    ).toBe(7)
  })
})

describe('step 8: pixels', () => {
  it('shows the pixel page, which loads the vendor snippet and goes on to the destination', async () => {
    const pixel = await s.api('POST', '/pixels', {
      name: 'fb',
      type: 'facebook',
      value: '123456789',
    })
    const pixelId = (pixel.json as { data: { id: number } }).data.id
    const { alias, id } = await link({ 'pixel_ids[]': pixelId })
    const res = await visit(`/${alias}?ref=x`)
    expect(res.status).toBe(200)
    expect(res.headers['content-security-policy']).toContain('https://connect.facebook.net')
    expect(res.body).toContain('https://www.facebook.com/tr?id=123456789')
    expect(res.body).toContain('content="1;url=https://example.com/landing?ref=x"')
    expect(
      await eventually(
        () => clicksOf(id),
        (n) => n === 1,
      ),
    ).toBe(1)
  })
})

describe('preview', () => {
  it('shows destination and rules at /<alias>+ without counting a click', async () => {
    const { alias, id } = await link({
      target_type: 1,
      'country[0][key]': 'DE',
      'country[0][value]': 'https://example.de/',
    })
    const res = await visit(`/${alias}+`)
    expect(res.status).toBe(200)
    expect(res.body).toContain('https://example.com/landing')
    expect(res.body).toContain('https://example.de/')
    expect(await clicksBeforeMarker(alias, id)).toBe(0)
  })

  it('does not reveal the destination of a password link', async () => {
    const { alias } = await link({ password: 'secret' })
    const res = await visit(`/${alias}+`)
    expect(res.status).toBe(200)
    expect(res.body).toContain('name="password"')
    expect(res.body).not.toContain('example.com/landing')
  })
})

describe("the service's own paths", () => {
  it('never collide with aliases', async () => {
    expect((await s.send('/health')).body).toBe('{"status":"ok"}')
    expect((await s.send('/api/docs')).status).toBe(200)
    expect((await s.send('/api/v1/nothing')).headers['content-type']).toBe(
      'application/json; charset=utf-8',
    )
    const reserved = await s.api('POST', '/links', {
      url: 'https://example.com',
      domain_id: 1,
      alias: 'health',
    })
    expect(reserved.json).toEqual({ message: { alias: ['The alias is reserved.'] }, status: 422 })
  })
})
