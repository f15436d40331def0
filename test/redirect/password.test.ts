import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BROWSER_UA, startServer, type TestServer } from '../support/server.js'

let s: TestServer
let n = 0

beforeAll(async () => {
  s = await startServer({ TRUST_PROXY: 'true' })
})
afterAll(() => s.stop())

async function protectedLink(password = 'open sesame') {
  const alias = `pw${n++}`
  const res = await s.api('POST', '/links', {
    url: 'https://example.com/secret-place',
    domain_id: 1,
    alias,
    password,
  })
  expect(res.status).toBe(201)
  return { alias, id: (res.json as { data: { id: number } }).data.id }
}

const from = (ip: string, extra: Record<string, string> = {}) => ({
  'user-agent': BROWSER_UA,
  'x-forwarded-for': ip,
  ...extra,
})

function submit(alias: string, password: string, ip = '203.0.113.7', query = '') {
  return s.send(`/${alias}${query}`, {
    method: 'POST',
    headers: from(ip, { 'content-type': 'application/x-www-form-urlencoded' }),
    body: `password=${encodeURIComponent(password)}`,
  })
}

function cookieOf(setCookie: string | string[] | undefined): string {
  const line = Array.isArray(setCookie) ? setCookie[0]! : setCookie!
  return line.split(';')[0]!
}

describe('password links', () => {
  it('show a form (200) that does not reveal the destination', async () => {
    const { alias } = await protectedLink()
    const res = await s.send(`/${alias}`, { headers: from('203.0.113.7') })
    expect(res.status).toBe(200)
    expect(res.body).toContain(`action="/${alias}"`)
    expect(res.body).toContain('name="password"')
    expect(res.body).not.toContain('secret-place')
  })

  it("keep the short URL's query in the form's action, before and after a wrong password", async () => {
    const { alias } = await protectedLink()
    const form = await s.send(`/${alias}?utm_source=mail&x=1`, { headers: from('203.0.113.9') })
    expect(form.body).toContain(`action="/${alias}?utm_source=mail&amp;x=1"`)
    const again = await submit(alias, 'wrong', '203.0.113.9', '?utm_source=mail&x=1')
    expect(again.body).toContain(`action="/${alias}?utm_source=mail&amp;x=1"`)
    const ok = await submit(alias, 'open sesame', '203.0.113.9', '?utm_source=mail&x=1')
    expect(ok.headers.location).toBe(`/${alias}?utm_source=mail&x=1`)
  })

  it('re-show the form with an error after a wrong password', async () => {
    const { alias } = await protectedLink()
    const res = await submit(alias, 'wrong')
    expect(res.status).toBe(200)
    expect(res.body).toContain('The password is not correct.')
    expect(res.body).not.toContain('secret-place')
  })

  it('remember a correct password with a signed, link-scoped cookie, then redirect', async () => {
    const { alias } = await protectedLink()
    const ok = await submit(alias, 'open sesame', '203.0.113.7', '?utm=1')
    expect(ok.status).toBe(303)
    expect(ok.headers.location).toBe(`/${alias}?utm=1`)
    const setCookie = String(ok.headers['set-cookie'])
    expect(setCookie).toMatch(
      /^slink_pw_\d+=\d+\.[A-Za-z0-9_-]+; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax$/,
    )
    const res = await s.send(`/${alias}?utm=1`, {
      headers: from('203.0.113.7', { cookie: cookieOf(ok.headers['set-cookie']) }),
    })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('https://example.com/secret-place?utm=1')
  })

  it("refuse one link's cookie on another link, a tampered cookie and a malformed one", async () => {
    const a = await protectedLink()
    const b = await protectedLink()
    const cookie = cookieOf((await submit(a.alias, 'open sesame')).headers['set-cookie'])
    const [, value] = cookie.split('=') as [string, string]
    for (const candidate of [
      `slink_pw_${b.id}=${value}`,
      `slink_pw_${a.id}=${value.slice(0, -2)}xx`,
      `slink_pw_${a.id}=${Number(value.split('.')[0]) + 100}.${value.split('.')[1]}`,
      `slink_pw_${a.id}=garbage`,
      `slink_pw_${a.id}=`,
      ';;;===;',
      'x'.repeat(9000),
    ]) {
      const target = candidate.startsWith(`slink_pw_${b.id}`) ? b.alias : a.alias
      const res = await s.send(`/${target}`, {
        headers: from('203.0.113.7', { cookie: candidate }),
      })
      expect(res.status, candidate.slice(0, 40)).toBe(200)
      expect(res.body).toContain('name="password"')
    }
  })

  it('forget remembered passwords when the password changes', async () => {
    const { alias, id } = await protectedLink()
    const cookie = cookieOf((await submit(alias, 'open sesame')).headers['set-cookie'])
    expect((await s.send(`/${alias}`, { headers: from('203.0.113.7', { cookie }) })).status).toBe(
      302,
    )
    expect((await s.api('PATCH', `/links/${id}`, { password: 'new one' })).status).toBe(200)
    expect((await s.send(`/${alias}`, { headers: from('203.0.113.7', { cookie }) })).status).toBe(
      200,
    )
  })

  it('limit wrong attempts to 10 a minute per visitor and link, with Retry-After, leaving others alone', async () => {
    const { alias } = await protectedLink()
    for (let i = 0; i < 10; i++)
      expect((await submit(alias, `wrong ${i}`, '198.51.100.1')).status).toBe(200)
    const blocked = await submit(alias, 'open sesame', '198.51.100.1')
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(blocked.body).toContain('Too many wrong passwords')
    expect(blocked.headers['set-cookie']).toBeUndefined()
    // Another visitor, and the same visitor on another link, are unaffected.
    expect((await submit(alias, 'open sesame', '198.51.100.2')).status).toBe(303)
    const other = await protectedLink()
    expect((await submit(other.alias, 'open sesame', '198.51.100.1')).status).toBe(303)
  })

  it('answer odd and malformed submissions with the form or a clean error page, never a 500', async () => {
    const { alias } = await protectedLink()
    const cases: { type: string; body: string; status: number }[] = [
      { type: 'application/x-www-form-urlencoded', body: '', status: 200 },
      {
        type: 'application/x-www-form-urlencoded',
        body: `password=${'x'.repeat(200)}`,
        status: 200,
      },
      { type: 'application/x-www-form-urlencoded', body: '%%%', status: 200 },
      { type: 'application/x-www-form-urlencoded', body: 'x'.repeat(5000), status: 413 },
      { type: 'application/json', body: '{"password":"open sesame"}', status: 303 },
      { type: 'application/json', body: '{"password":', status: 400 },
      { type: 'application/json', body: '{"password":["open sesame"]}', status: 200 },
      { type: 'text/plain', body: 'open sesame', status: 200 },
      { type: 'application/xml', body: '<password/>', status: 415 },
    ]
    for (const c of cases) {
      const res = await s.send(`/${alias}`, {
        method: 'POST',
        headers: from('192.0.2.55', { 'content-type': c.type }),
        body: c.body,
      })
      expect(res.status, `${c.type} ${c.body.slice(0, 20)}`).toBe(c.status)
      if (c.status !== 303) expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    }
  })
})
