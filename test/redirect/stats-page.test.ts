import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/connect.js'
import { dayOfInstant, lastDays } from '../../src/stats/period.js'
import { click, writeClicks } from '../support/clicks.js'
import { BROWSER_UA, eventually, startServer, type TestServer } from '../support/server.js'

let s: TestServer
let n = 0

beforeAll(async () => {
  s = await startServer({ TRUST_PROXY: 'true' })
})
afterAll(() => s.stop())

async function link(form: Record<string, string | number> = {}) {
  const alias = `st${n++}`
  const res = await s.api('POST', '/links', {
    url: 'https://example.com/hidden-destination',
    domain_id: 1,
    alias,
    title: 'Spring sale',
    ...form,
  })
  expect(res.status).toBe(201)
  return { alias, id: (res.json as { data: { id: number } }).data.id }
}

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
const ANDROID =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'

const from = (ip: string, extra: Record<string, string> = {}) => ({
  'user-agent': BROWSER_UA,
  'x-forwarded-for': ip,
  ...extra,
})

/** Four counted clicks from three visitors (a HEAD and a crawler are not counted). */
async function visit(alias: string): Promise<void> {
  const news = { 'accept-language': 'en-US,en;q=0.9', referer: 'https://news.example.org/a?b=c' }
  await s.send(`/${alias}`, { headers: from('8.8.8.8', news) })
  await s.send(`/${alias}`, { headers: from('8.8.8.8', news) })
  await s.send(`/${alias}`, {
    headers: from('193.0.6.139', { 'user-agent': IPHONE, 'accept-language': 'nl-NL' }),
  })
  await s.send(`/${alias}`, {
    headers: from('80.67.169.12', {
      'user-agent': ANDROID,
      'accept-language': 'fr',
      referer: 'https://t.co/x',
    }),
  })
  await s.send(`/${alias}`, { method: 'HEAD', headers: from('8.8.4.4') })
  await s.send(`/${alias}`, {
    headers: from('8.8.4.4', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' }),
  })
}

async function clicksOf(id: number): Promise<number> {
  return ((await s.api('GET', `/links/${id}`)).json as { data: { clicks: number } }).data.clicks
}

async function statRows(id: number, name: string) {
  const res = await s.api('GET', `/stats/${id}?name=${name}&per_page=100`)
  expect(res.status).toBe(200)
  return (res.json as { data: { value: string | null; count: number }[] }).data
}

const bars = (html: string, chart: string) => {
  const svg = html.slice(
    html.indexOf(`id="${chart}"`),
    html.indexOf('</svg>', html.indexOf(`id="${chart}"`)),
  )
  return svg.match(/<rect class="bar"/g)?.length ?? 0
}

describe('the stats API after real visits', () => {
  it("adds up, for every name, to the link's clicks over the same period", async () => {
    const { alias, id } = await link()
    await visit(alias)
    expect(
      await eventually(
        () => clicksOf(id),
        (c) => c === 4,
      ),
    ).toBe(4)
    for (const name of [
      'clicks',
      'clicks_hour',
      'country',
      'platform',
      'browser',
      'device',
      'language',
      'referrer',
    ]) {
      const rows = await eventually(
        () => statRows(id, name),
        (r) => r.reduce((a, x) => a + x.count, 0) === 4,
      )
      expect(
        rows.reduce((a, x) => a + x.count, 0),
        name,
      ).toBe(4)
    }
    const sorted = (rows: { value: string | null; count: number }[]) =>
      rows.map((r) => [r.value, r.count])
    expect(sorted(await statRows(id, 'country'))).toEqual([
      ['US', 2],
      ['FR', 1],
      ['NL', 1],
    ])
    expect(sorted(await statRows(id, 'platform'))).toEqual([
      ['Windows', 2],
      ['Android', 1],
      ['iOS', 1],
    ])
    expect(sorted(await statRows(id, 'browser'))).toEqual([
      ['Chrome', 3],
      ['Safari', 1],
    ])
    expect(sorted(await statRows(id, 'device'))).toEqual([
      ['desktop', 2],
      ['mobile', 2],
    ])
    expect(sorted(await statRows(id, 'language'))).toEqual([
      ['en', 2],
      ['fr', 1],
      ['nl', 1],
    ])
    expect(sorted(await statRows(id, 'referrer'))).toEqual([
      ['news.example.org', 2],
      [null, 1],
      ['t.co', 1],
    ])
  })
})

describe('the stats page, /<alias>/stats', () => {
  it('shows clicks, unique visitors, a chart of the last 30 days and the top values (privacy 0)', async () => {
    const { alias, id } = await link()
    await visit(alias)
    await eventually(
      () => clicksOf(id),
      (c) => c === 4,
    )
    const res = await s.send(`/${alias}/stats`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'nonce-[^']+'; img-src 'self' data:;/,
    )
    expect(res.headers['content-security-policy']).not.toContain('script-src')
    const html = res.body
    expect(html).toContain('<strong id="total-clicks">4</strong> clicks')
    expect(html).toContain('<strong id="unique-visitors">3</strong> unique visitors')
    expect(html).toContain('<strong id="all-time-clicks">4</strong> clicks all time')
    expect(html).toContain('<code>http://short.test/' + alias + '</code> · Spring sale')
    expect(bars(html, 'chart-days')).toBe(30)
    expect(bars(html, 'chart-hours')).toBe(24)
    const today = dayOfInstant(Date.now())
    expect(html).toContain(`<title>${today}: 4 clicks</title>`)
    for (const text of [
      'United States <code class="muted">US</code>',
      'Netherlands',
      'France',
      'news.example.org',
      'Direct, or not known',
      'Windows',
      'iOS',
      'Android',
      'Chrome',
      'Safari',
      'Desktop',
      'Mobile',
      'English <code class="muted">en</code>',
      'Dutch',
      'French',
    ])
      expect(html, text).toContain(text)
    expect(html).toContain('IP Geolocation by <a href="https://db-ip.com">DB-IP</a>')
    expect(html).toContain(`href="http://short.test/${alias}+"`)
    expect(html).not.toContain('hidden-destination')
    expect(html).not.toMatch(/<script|<img|<link rel="stylesheet"|src="http/)
  })

  it('answers HEAD with the same status and headers and no body', async () => {
    const { alias } = await link()
    const res = await s.send(`/${alias}/stats`, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.body).toBe('')
  })

  it('is linked from the preview page unless the statistics are private', async () => {
    for (const [privacy, linked] of [
      [0, true],
      [1, false],
      [2, true],
    ] as const) {
      const { alias } = await link(
        privacy === 2 ? { privacy, privacy_password: 'pw' } : { privacy },
      )
      const preview = await s.send(`/${alias}+`)
      expect(
        preview.body.includes(`href="http://short.test/${alias}/stats"`),
        `privacy ${privacy}`,
      ).toBe(linked)
    }
  })

  it('shows the period asked for, one bar a day, and offers the usual periods', async () => {
    const { alias } = await link()
    const res = await s.send(`/${alias}/stats?from=2026-01-01&to=2026-03-31`)
    expect(res.status).toBe(200)
    expect(bars(res.body, 'chart-days')).toBe(90)
    expect(res.body).toContain('From <time>2026-01-01</time> to <time>2026-03-31</time>')
    const today = dayOfInstant(Date.now())
    const week = lastDays(7, today)
    expect(res.body).toContain(
      `<a href="/${alias}/stats?from=${week.from}&amp;to=${week.to}">Last 7 days</a>`,
    )
    const year = await s.send(`/${alias}/stats?from=${lastDays(366, today).from}`)
    expect(bars(year.body, 'chart-days')).toBe(366)
  })

  it('explains a period it cannot show (422), escaping what was sent', async () => {
    const { alias } = await link()
    for (const [query, message] of [
      ['from=2026-04-02&to=2026-04-01', 'The from field must be a date before or equal to to.'],
      [
        'from=2020-01-01&to=2026-01-01',
        'The from field must not be more than 365 days before to (a period is at most 366 days).',
      ],
      ['from=%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'The from field must match the format Y-m-d.'],
      ['to=1999-12-31', 'The to field must be a date after or equal to 2000-01-01.'],
    ]) {
      const res = await s.send(`/${alias}/stats?${query}`)
      expect(res.status, query).toBe(422)
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(res.body).toContain(`<li>${message}</li>`)
      expect(res.body).toContain(`href="/${alias}/stats">Show the last 30 days</a>`)
      expect(res.body).not.toContain('<script>alert')
    }
  })

  it('escapes every stored value', async () => {
    const { alias, id } = await link()
    const db = openDatabase({ kind: 'sqlite', path: s.dbPath })
    try {
      await writeClicks(db, [
        click(id, new Date().toISOString(), {
          country: '<b>',
          platform: '</td></table><h1>x',
          browser: '"><img src=x onerror=alert(2)>',
          device: "'><svg onload=alert(3)>",
          language: '<i>',
          referrer: '<script>alert(1)</script>',
        }),
      ])
    } finally {
      await db.close()
    }
    const res = await s.send(`/${alias}/stats`)
    expect(res.status).toBe(200)
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(res.body).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;')
    expect(res.body).not.toMatch(/<script|<img|<h1>x|<svg onload|<b>|<i>/)
    expect(res.body).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i)
  })

  it('shows the statistics of disabled, expired and password links, never their destination', async () => {
    const forms: Record<string, string | number>[] = [
      { disabled: 1 },
      { expiration_date: '2001-01-01', expiration_time: '00:00' },
      { password: 'secret' },
    ]
    for (const form of forms) {
      const { alias } = await link(form)
      const res = await s.send(`/${alias}/stats`)
      expect(res.status, JSON.stringify(form)).toBe(200)
      expect(res.body).toContain('id="chart-days"')
      expect(res.body).not.toContain('hidden-destination')
      if ('password' in form) expect(res.body).not.toContain('Spring sale')
    }
  })

  it('answers unknown aliases, unknown hosts and API paths as the rest of the service does', async () => {
    const unknown = await s.send('/no-such-alias/stats')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toContain('Link not found')
    expect((await s.send('/st0/stats', { host: 'elsewhere.test' })).status).toBe(404)
    const api = await s.send('/api/stats')
    expect(api.status).toBe(404)
    expect(JSON.parse(api.body)).toEqual({ message: 'Resource not found.', status: 404 })
    expect((await s.send('/st0+/stats')).status).toBe(404)
  })
})

describe('privacy of the stats page', () => {
  const submit = (
    path: string,
    password: string,
    ip = '203.0.113.9',
    type = 'application/x-www-form-urlencoded',
  ) =>
    s.send(path, {
      method: 'POST',
      headers: from(ip, { 'content-type': type }),
      body: type.includes('json')
        ? JSON.stringify({ password })
        : `password=${encodeURIComponent(password)}`,
    })
  const cookieOf = (res: { headers: Record<string, string | string[] | undefined> }) =>
    String(res.headers['set-cookie']).split(';')[0]!

  it('privacy 1: a page saying the statistics are private (403), and nothing else', async () => {
    const { alias } = await link({ privacy: 1 })
    const res = await s.send(`/${alias}/stats`)
    expect(res.status).toBe(403)
    expect(res.body).toContain('The statistics of this link are private.')
    expect(res.body).not.toContain('chart-days')
    expect((await s.send(`/${alias}/stats`, { method: 'HEAD' })).status).toBe(403)
    const posted = await submit(`/${alias}/stats`, 'anything')
    expect(posted.status).toBe(303)
    expect(posted.headers.location).toBe(`/${alias}/stats`)
    expect(posted.headers['set-cookie']).toBeUndefined()
  })

  it('privacy 2: a password form, then the page, remembered by a signed cookie for the statistics only', async () => {
    const { alias, id } = await link({
      privacy: 2,
      privacy_password: 'stats pw',
      password: 'link pw',
    })
    const form = await s.send(`/${alias}/stats?from=2026-01-01&to=2026-01-31`)
    expect(form.status).toBe(200)
    expect(form.body).toContain('Statistics password required')
    expect(form.body).toContain(`action="/${alias}/stats?from=2026-01-01&amp;to=2026-01-31"`)
    expect(form.body).not.toContain('chart-days')

    const wrong = await submit(`/${alias}/stats`, 'link pw')
    expect(wrong.status).toBe(200)
    expect(wrong.body).toContain('The password is not correct.')
    expect(wrong.headers['set-cookie']).toBeUndefined()

    const ok = await submit(`/${alias}/stats?from=2026-01-01&to=2026-01-31`, 'stats pw')
    expect(ok.status).toBe(303)
    expect(ok.headers.location).toBe(`/${alias}/stats?from=2026-01-01&to=2026-01-31`)
    expect(String(ok.headers['set-cookie'])).toMatch(
      new RegExp(
        `^slink_st_${id}=\\d+\\.[A-Za-z0-9_-]+; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax$`,
      ),
    )
    const cookie = cookieOf(ok)
    const page = await s.send(`/${alias}/stats?from=2026-01-01&to=2026-01-31`, {
      headers: { cookie },
    })
    expect(page.status).toBe(200)
    expect(bars(page.body, 'chart-days')).toBe(31)
    // The statistics cookie does not open the link, and a link-password cookie does not open the statistics.
    expect(
      (await s.send(`/${alias}`, { headers: from('203.0.113.9', { cookie }) })).body,
    ).toContain('name="password"')
    const linkCookie = cookieOf(await submit(`/${alias}`, 'link pw'))
    expect(linkCookie).toMatch(new RegExp(`^slink_pw_${id}=`))
    const other = await s.send(`/${alias}/stats`, {
      headers: { cookie: linkCookie.replace('slink_pw_', 'slink_st_') },
    })
    expect(other.body).toContain('Statistics password required')
    // A JSON body works as the form does.
    expect(
      (await submit(`/${alias}/stats`, 'stats pw', '203.0.113.9', 'application/json')).status,
    ).toBe(303)
  })

  it('privacy 2: a new statistics password forgets every remembered one', async () => {
    const { alias, id } = await link({ privacy: 2, privacy_password: 'first' })
    const cookie = cookieOf(await submit(`/${alias}/stats`, 'first'))
    expect((await s.send(`/${alias}/stats`, { headers: { cookie } })).status).toBe(200)
    expect((await s.api('PATCH', `/links/${id}`, { privacy_password: 'second' })).status).toBe(200)
    expect((await s.send(`/${alias}/stats`, { headers: { cookie } })).body).toContain(
      'Statistics password required',
    )
  })

  it('privacy 2: limits wrong passwords to 10 a minute per visitor, apart from the link password', async () => {
    const { alias } = await link({ privacy: 2, privacy_password: 'stats pw', password: 'link pw' })
    for (let i = 0; i < 10; i++)
      expect((await submit(`/${alias}/stats`, `wrong ${i}`, '198.51.100.7')).status).toBe(200)
    const blocked = await submit(`/${alias}/stats`, 'stats pw', '198.51.100.7')
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(blocked.body).toContain('Too many wrong passwords')
    expect(blocked.headers['set-cookie']).toBeUndefined()
    expect((await submit(`/${alias}/stats`, 'stats pw', '198.51.100.8')).status).toBe(303)
    expect((await submit(`/${alias}`, 'link pw', '198.51.100.7')).status).toBe(303)
  })
})
