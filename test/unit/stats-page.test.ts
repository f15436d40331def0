import { describe, expect, it } from 'vitest'
import { statsPage, statsPeriodErrorPage, type StatsPageInput } from '../../src/pages/index.js'
import type { StatsOverview } from '../../src/stats/overview.js'
import { statsPageInput } from '../../src/stats/page-data.js'

const HOSTILE = `"'><script>alert(1)</script><img src=x onerror=alert(2)>`

function overview(over: Partial<StatsOverview> = {}): StatsOverview {
  return {
    period: { from: '2026-03-12', to: '2026-04-10' },
    clicks: 1234,
    visitors: 1000,
    scans: 12,
    allTime: 5678,
    days: [
      { day: '2026-03-12', clicks: 0 },
      { day: '2026-03-13', clicks: 1234 },
    ],
    hours: Array.from({ length: 24 }, (_, h) => ({ hour: String(h).padStart(2, '0'), clicks: h })),
    top: [
      {
        dimension: 'country',
        rows: [
          { value: 'DE', count: 1000 },
          { value: '', count: 234 },
        ],
        values: 12,
      },
      { dimension: 'referrer', rows: [{ value: '', count: 1234 }], values: 1 },
      { dimension: 'platform', rows: [], values: 0 },
      { dimension: 'browser', rows: [{ value: 'Chrome', count: 1234 }], values: 1 },
      { dimension: 'device', rows: [{ value: 'tablet', count: 1234 }], values: 1 },
      {
        dimension: 'language',
        rows: [
          { value: 'pt', count: 1234 },
          { value: 'zz', count: 1 },
        ],
        values: 2,
      },
    ],
    ...over,
  }
}

const LINK = { alias: 'promo', shortUrl: 'https://go.example/promo', title: 'Spring' }

describe('the stats page data', () => {
  const input = statsPageInput(LINK, overview(), '2026-04-10')

  it('names countries and languages, with their codes, and words unknown values', () => {
    const [countries, referrers, , , devices, languages] = input.tables
    expect(countries!.rows).toEqual([
      { label: 'Germany', detail: 'DE', unknown: false, count: 1000 },
      { label: 'Unknown', detail: null, unknown: true, count: 234 },
    ])
    expect(countries!.geoAttribution?.link.text).toBe('DB-IP')
    expect(referrers!.rows[0]).toEqual({
      label: 'Direct, or not known',
      detail: null,
      unknown: true,
      count: 1234,
    })
    expect(referrers!.geoAttribution).toBeNull()
    expect(devices!.rows[0]!.label).toBe('Tablet')
    expect(languages!.rows.map((r) => [r.label, r.detail])).toEqual([
      ['Portuguese', 'pt'],
      ['zz', 'zz'],
    ])
  })

  it('offers the last 7, 30, 90 and 365 days, marking the one shown', () => {
    expect(input.periods).toEqual([
      { label: 'Last 7 days', href: '/promo/stats?from=2026-04-04&to=2026-04-10', current: false },
      { label: 'Last 30 days', href: '/promo/stats?from=2026-03-12&to=2026-04-10', current: true },
      { label: 'Last 90 days', href: '/promo/stats?from=2026-01-11&to=2026-04-10', current: false },
      {
        label: 'Last 365 days',
        href: '/promo/stats?from=2025-04-11&to=2026-04-10',
        current: false,
      },
    ])
  })

  it('makes a bar of every day and hour, and links the preview', () => {
    expect(input.days).toEqual([
      { label: '2026-03-12', value: 0 },
      { label: '2026-03-13', value: 1234 },
    ])
    expect(input.hours).toHaveLength(24)
    expect(input.hours[13]).toEqual({ label: '13:00', value: 13 })
    expect(input.previewUrl).toBe('https://go.example/promo+')
  })
})

describe('the stats page', () => {
  const page = statsPage(statsPageInput(LINK, overview(), '2026-04-10'))

  it('shows the figures, both charts, the tables with shares, and the attribution', () => {
    expect(page.html).toContain('<strong id="total-clicks">1,234</strong> clicks')
    expect(page.html).toContain('<strong id="unique-visitors">1,000</strong> unique visitors')
    expect(page.html).toContain('<strong id="all-time-clicks">5,678</strong> clicks all time')
    expect(page.html).toContain('data-bars="2"')
    expect(page.html).toContain('data-bars="24"')
    expect(page.html).toContain(
      '<td>Germany <code class="muted">DE</code></td><td class="num">1,000</td><td class="num muted">81.0 %</td>',
    )
    expect(page.html).toContain('<td class="muted">Unknown</td>')
    expect(page.html).toContain('<p class="muted">and 10 more</p>')
    expect(page.html).toContain('No clicks in this period.')
    expect(page.html.match(/IP Geolocation by/g)).toHaveLength(1)
    expect(page.html).toContain('<main class="wide">')
    expect(page.html).toContain('<strong aria-current="true">Last 30 days</strong>')
  })

  it('has no script and a CSP without script-src', () => {
    expect(page.html).not.toContain('<script')
    expect(page.headers['Content-Security-Policy']).not.toContain('script-src')
    expect(page.headers['Content-Security-Policy']).toMatch(
      /^default-src 'none'; style-src 'nonce-/,
    )
  })

  it('escapes every stored value and link fact', () => {
    const hostile = statsPage(
      statsPageInput(
        { alias: 'promo', shortUrl: `https://go.example/${HOSTILE}`, title: HOSTILE },
        overview({
          top: (['country', 'referrer', 'platform', 'browser', 'device', 'language'] as const).map(
            (dimension) => ({ dimension, rows: [{ value: HOSTILE, count: 1 }], values: 1 }),
          ),
          days: [{ day: HOSTILE, clicks: 1 }],
        }),
        '2026-04-10',
      ),
    ).html
    expect(hostile).not.toContain('<script>alert(1)')
    expect(hostile).not.toContain('<img src=x')
    expect(hostile).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i)
    expect(hostile).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('keeps period links on this origin', () => {
    const input: StatsPageInput = {
      ...statsPageInput(LINK, overview(), '2026-04-10'),
      periods: [
        { label: 'evil', href: 'javascript:alert(1)', current: false },
        { label: 'far', href: '//evil.example/x', current: false },
      ],
    }
    const html = statsPage(input).html
    expect(html).toContain('<a href="#">evil</a>')
    expect(html).toContain('<a href="#">far</a>')
  })

  it('explains a period it cannot show, escaping the messages', () => {
    const html = statsPeriodErrorPage({ messages: [HOSTILE], resetHref: '/promo/stats' }).html
    expect(html).not.toContain('<script>alert(1)')
    expect(html).toContain('<a class="button" href="/promo/stats">Show the last 30 days</a>')
  })
})
