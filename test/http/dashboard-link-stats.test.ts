/**
 * The dashboard's statistics of a link and its QR code: the numbers are the API's for the same
 * period, every list downloads as the API's CSV, periods that break the rules answer 422 with
 * the messages, another user's link is a 404 everywhere, stored text is escaped, and the QR
 * images decode to the short URL with qr=1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { click, clicks, writeClicks } from '../support/clicks.js'
import { FormClient } from '../support/dashboard.js'
import { decodePng, decodeSvg } from '../support/qr.js'
import { API, createLink, expectStatus } from './helpers.js'

/** "Today": 2026-04-10; the link is made today, so "All time" is this one day. */
const NOW = Date.parse('2026-04-10T12:00:00Z')
const PERIOD = 'from=2026-02-27&to=2026-04-02'

let t: TestApp
let alice: FormClient
let link: number
let bobs: number

beforeAll(async () => {
  t = await createTestApp({}, { now: () => NOW })
  await t.services.accounts.setPassword(t.userA, 'alice password')
  link = (
    await createLink(t, {
      alias: 'spring',
      title: '<script>alert("title")</script> Spring',
      privacy: 1,
    })
  ).id
  bobs = (await createLink(t, { alias: 'bobs' }, KEY_B)).id
  await writeClicks(t.services.db, [
    ...clicks(3, link, '2026-02-27T10:15:00Z', { referrer: 'news.example.org' }),
    click(link, '2026-02-28T23:59:59Z', { country: 'US', platform: 'OS X', browser: 'Safari' }),
    ...clicks(2, link, '2026-03-01T00:00:00Z', {
      country: null,
      platform: null,
      browser: null,
      device: 'mobile',
      language: null,
      referrer: '<script>alert("referrer")</script>',
    }),
    ...clicks(4, link, '2026-03-15T13:30:00Z', { country: 'FR', language: 'fr' }),
    ...clicks(2, link, '2026-03-31T13:45:00Z', { country: 'US', referrer: 'a,"b"' }),
    click(link, '2026-04-02T08:00:00Z', { country: 'SG', referrer: '=cmd' }),
    // Outside the period: counted all time only.
    ...clicks(5, link, '2026-04-09T08:00:00Z', { country: 'JP' }),
    ...clicks(7, bobs, '2026-03-15T08:00:00Z'),
  ])
  alice = new FormClient(t.app)
  expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
})
afterAll(() => t.close())

async function apiRows(name: string, query: string) {
  const res = await t.call('GET', `${API}/stats/${link}?name=${name}&${query}&per_page=100`)
  expectStatus(res, 200)
  return (res.json() as { data: { value: string | null; count: number }[] }).data
}

/** The text of some markup, each tag a space, spaces collapsed. */
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

describe('GET /dashboard/links/{id}/stats', () => {
  it('shows the API’s numbers for the period: totals, every day, every hour, top values, the map', async () => {
    const res = await alice.get(`/dashboard/links/${link}/stats?${PERIOD}`)
    expectStatus(res, 200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['cache-control']).toBe('no-store')
    const page = res.body
    const days = await apiRows('clicks', PERIOD)
    const total = days.reduce((sum, d) => sum + d.count, 0)
    expect(total).toBe(13)
    expect(text(page)).toContain('From 2026-02-27 to 2026-04-02 (UTC days)')
    expect(page).toContain('<li id="total-clicks"><strong>13</strong> clicks</li>')
    expect(page).toContain('<li id="total-all-time"><strong>18</strong> clicks all time</li>')
    // One bar a day of the period (35 days); each day's tooltip has the API's count.
    expect(page).toContain('id="chart-days" viewBox="0 0 720 220" role="img"')
    expect(page).toContain('data-bars="35"')
    for (const day of days) {
      const count = `${day.count} clicks`
      expect(page).toContain(`<title>${day.value!.slice(5)}: ${count}</title>`)
    }
    for (const hour of await apiRows('clicks_hour', PERIOD))
      expect(page).toContain(`<title>${hour.value}:00: ${hour.count} clicks</title>`)
    // The countries' table and map: the API's counts; Singapore is too small for the map.
    const countries = await apiRows('country', PERIOD)
    expect(countries).toEqual([
      { value: 'FR', count: 4 },
      { value: 'DE', count: 3 },
      { value: 'US', count: 3 },
      { value: null, count: 2 },
      { value: 'SG', count: 1 },
    ])
    const table = /<section class="panel" id="top-country"[\s\S]*?<\/section>/.exec(page)![0]
    expect(text(table)).toContain('Germany DE 3 23.1 %')
    expect(text(table)).toContain('France FR 4 30.8 %')
    expect(text(table)).toContain('United States US 3 23.1 %')
    expect(text(table)).toContain('Unknown 2 15.4 %')
    expect(text(table)).toContain('Singapore SG 1 7.7 %')
    expect(table).toContain('IP Geolocation by <a href="https://db-ip.com">DB-IP</a>')
    expect(page).toMatch(
      /<path class="map-\d" data-country="DE" d="M[^"]+"><title>Germany: 3 clicks<\/title><\/path>/,
    )
    expect(page).toMatch(
      /<path class="map-5" data-country="FR" d="[^"]+"><title>France: 4 clicks<\/title>/,
    )
    expect(page).toMatch(
      /<path class="map-0" data-country="JP" d="[^"]+"><title>Japan: 0 clicks<\/title>/,
    )
    expect(page).not.toContain('data-country="SG"')
    // Every other dimension has its table and its CSV link.
    for (const name of ['referrer', 'platform', 'browser', 'device', 'language', 'country']) {
      expect(page).toContain(
        `href="/dashboard/links/${link}/stats.csv?name=${name}&amp;${PERIOD.replace('&', '&amp;')}"`,
      )
    }
    const platforms = /<section class="panel" id="top-platform"[\s\S]*?<\/section>/.exec(page)![0]
    expect(text(platforms)).toContain('Windows 10 76.9 %')
    expect(text(platforms)).toContain('OS X 1 7.7 %')
    expect(text(platforms)).toContain('Other or unknown 2 15.4 %')
  })

  it('escapes the link’s title and stored referrers; shows the statistics whatever the privacy', async () => {
    const res = await alice.get(`/dashboard/links/${link}/stats?${PERIOD}`)
    expectStatus(res, 200)
    expect(res.body).toContain('&lt;script>alert(&quot;title&quot;)&lt;/script> Spring')
    expect(res.body).toContain('&lt;script>alert(&quot;referrer&quot;)&lt;/script>')
    expect(res.body).not.toContain('<script>alert')
  })

  it('offers the presets as links with dates; the default is the last 30 days', async () => {
    const res = await alice.get(`/dashboard/links/${link}/stats`)
    expectStatus(res, 200)
    const base = `/dashboard/links/${link}/stats`
    const nav = /<nav class="periods"[\s\S]*?<\/nav>/.exec(res.body)![0]
    expect(nav).toBe(
      '<nav class="periods" aria-label="Periods">' +
        `<a href="${base}?from=2026-04-04&amp;to=2026-04-10">Last 7 days</a>` +
        '<strong aria-current="true">Last 30 days</strong>' +
        `<a href="${base}?from=2026-01-11&amp;to=2026-04-10">Last 90 days</a>` +
        `<a href="${base}?from=2026-01-01&amp;to=2026-04-10">This year</a>` +
        `<a href="${base}?from=2026-04-10&amp;to=2026-04-10">All time</a></nav>`,
    )
    expect(res.body).toContain('<input type="date" id="period-from" name="from" value="2026-03-12"')
    expect(res.body).toContain('<input type="date" id="period-to" name="to" value="2026-04-10"')
    expect(res.body).toContain('<li id="total-clicks"><strong>12</strong> clicks</li>')
    const week = await alice.get(`${base}?from=2026-04-04&to=2026-04-10`)
    expect(week.body).toContain('<strong aria-current="true">Last 7 days</strong>')
    expect(week.body).toContain('<li id="total-clicks"><strong>5</strong> clicks</li>')
    // Empty fields of the form are absent: the default period.
    const empty = await alice.get(`${base}?from=&to=`)
    expect(empty.body).toContain('<strong aria-current="true">Last 30 days</strong>')
  })

  it.each([
    ['from=2026-02-30&to=2026-03-01', { from: 'The from field must match the format Y-m-d.' }],
    ['from=1999-12-31', { from: 'The from field must be a date after or equal to 2000-01-01.' }],
    [
      'from=2026-04-02&to=2026-04-01',
      { from: 'The from field must be a date before or equal to to.' },
    ],
    [
      'from=2025-01-01&to=2026-04-01',
      {
        from: 'The from field must not be more than 365 days before to (a period is at most 366 days).',
      },
    ],
    [
      'from=<b>&to=2100-01-01',
      {
        from: 'The from field must match the format Y-m-d.',
        to: 'The to field must be a date before or equal to 2099-12-31.',
      },
    ],
  ])(
    'answers %s with 422, the form and the messages beside its fields',
    async (query, messages) => {
      const res = await alice.get(`/dashboard/links/${link}/stats?${query}`)
      expectStatus(res, 422)
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
      for (const [field, message] of Object.entries(messages)) {
        expect(res.body).toContain(
          `<p class="field-error" id="period-${field}-error">${message}</p>`,
        )
        expect(res.body).toContain(`<li>${message}</li>`)
      }
      expect(res.body).not.toContain('id="chart-days"')
      expect(res.body).not.toContain('<b>')
    },
  )
})

describe('GET /dashboard/links/{id}/stats.csv', () => {
  it('downloads every row of a list as the API’s CSV for the same period', async () => {
    for (const name of ['country', 'referrer', 'clicks', 'clicks_hour']) {
      const res = await alice.get(`/dashboard/links/${link}/stats.csv?name=${name}&${PERIOD}`)
      expectStatus(res, 200)
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="stats-${link}-${name}-2026-02-27-2026-04-02.csv"`,
      )
      const order = name.startsWith('clicks') ? '&sort_by=value&sort=asc' : ''
      const api = await t.call(
        'GET',
        `${API}/stats/${link}?name=${name}&${PERIOD}&per_page=100&format=csv${order}`,
      )
      expect(res.body).toBe(api.body)
    }
  })

  it('writes the rows exactly: quoted fields, formulas disarmed, unknown values empty, CRLF', async () => {
    const res = await alice.get(`/dashboard/links/${link}/stats.csv?name=referrer&${PERIOD}`)
    expect(res.body).toBe(
      [
        'value,count',
        ',5',
        'news.example.org,3',
        '"<script>alert(""referrer"")</script>",2',
        '"a,""b""",2',
        "'=cmd,1",
        '',
      ].join('\r\n'),
    )
  })

  it('answers 422 naming a missing or unknown list, or a bad period', async () => {
    const base = `/dashboard/links/${link}/stats.csv`
    const missing = await alice.get(`${base}?${PERIOD}`)
    expectStatus(missing, 422)
    expect(missing.body).toContain('<li>The name field is required.</li>')
    const unknown = await alice.get(`${base}?name=secrets&from=2026-13-01`)
    expectStatus(unknown, 422)
    expect(unknown.body).toContain('<li>The selected name is invalid.</li>')
    expect(unknown.body).toContain('<li>The from field must match the format Y-m-d.</li>')
  })
})

describe('QR codes in the dashboard', () => {
  it('shows the QR code with downloads as SVG and PNG', async () => {
    const res = await alice.get(`/dashboard/links/${link}/qr`)
    expectStatus(res, 200)
    const base = `/dashboard/links/${link}`
    expect(res.body).toContain(
      `<img class="qr-image" id="qr-image" src="${base}/qr.svg" width="256" height="256" alt="QR code of http://short.test/spring"/>`,
    )
    expect(res.body).toContain(
      `<a id="download-svg" href="${base}/qr.svg" download="qr-spring.svg">`,
    )
    for (const size of [256, 512, 1024])
      expect(res.body).toContain(
        `<a id="download-png-${size}" href="${base}/qr.png?size=${size}" download="qr-spring-${size}.png">`,
      )
    expect(res.body).toContain('&lt;script>alert(&quot;title&quot;)&lt;/script> Spring')
  })

  it('sends the images as attachments that decode to the short URL with qr=1', async () => {
    const svg = await alice.get(`/dashboard/links/${link}/qr.svg`)
    expectStatus(svg, 200)
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(svg.headers['content-disposition']).toBe('attachment; filename="qr-spring.svg"')
    expect(svg.headers['content-security-policy']).toBe("default-src 'none'")
    expect(decodeSvg(svg.body)).toBe('http://short.test/spring?qr=1')
    const png = await alice.get(`/dashboard/links/${link}/qr.png?size=512`)
    expectStatus(png, 200)
    expect(png.headers['content-type']).toBe('image/png')
    // Each size downloads under a name of its own.
    expect(png.headers['content-disposition']).toBe('attachment; filename="qr-spring-512.png"')
    const large = await alice.get(`/dashboard/links/${link}/qr.png?size=1024`)
    expect(large.headers['content-disposition']).toBe('attachment; filename="qr-spring-1024.png"')
    expect(decodePng(png.rawPayload)).toEqual({
      text: 'http://short.test/spring?qr=1',
      width: 512,
      height: 512,
    })
  })

  it.each([
    ['size=63', 'The size field must be at least 64.'],
    ['size=1025', 'The size field must not be greater than 1024.'],
    ['size=1e3', 'The size field must be an integer.'],
  ])('answers qr.png?%s with a 422 page', async (query, message) => {
    const res = await alice.get(`/dashboard/links/${link}/qr.png?${query}`)
    expectStatus(res, 422)
    expect(res.body).toContain(`<li>${message}</li>`)
  })
})

describe('repeated and structured parameters', () => {
  it.each([
    ['stats?from=2026-01-01&from=2026-02-01', 422],
    ['stats?from[a]=1&to[]=2', 422],
    ['stats?from[__proto__][x]=1', 200],
    ['stats.csv?name=country&name=clicks', 422],
    ['stats.csv?name[]=country', 422],
    ['qr.png?size=64&size=128', 422],
    ['qr.svg?size[a]=64', 422],
  ])('answers %s with %i, never a 5xx', async (path, status) => {
    const res = await alice.get(`/dashboard/links/${link}/${path}`)
    expectStatus(res, status)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
  })
})

describe('tenancy and sign-in', () => {
  it('answers the same 404 page for another user’s link, a missing one and a malformed id', async () => {
    for (const id of [bobs, 999999, 'abc', '1e3']) {
      for (const path of ['stats', 'stats.csv?name=country', 'qr', 'qr.svg', 'qr.png']) {
        const res = await alice.get(`/dashboard/links/${id}/${path}`)
        expectStatus(res, 404)
        expect(res.body).toContain('<h1>Link not found</h1>')
        expect(res.body).not.toContain('bobs')
      }
    }
  })

  it('sends a signed-out visitor to the sign-in page', async () => {
    const stranger = new FormClient(t.app)
    for (const path of ['stats', 'stats.csv?name=country', 'qr', 'qr.png']) {
      const res = await stranger.get(`/dashboard/links/${link}/${path}`)
      expectStatus(res, 303)
      expect(res.headers.location).toBe('/login')
    }
  })
})
