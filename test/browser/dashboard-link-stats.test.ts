/**
 * A link's statistics and QR code in real Chromium: the world map is drawn (one shape per
 * country, the busiest darkest), stored script payloads (the title, a referrer) are shown as
 * text and never run, no CSP violation, no serious or critical axe-core violation, nothing
 * wider than a phone; the QR code as the browser draws it decodes to the short URL.
 * Screenshots at phone and desktop width, light and dark, go to test-artifacts/.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/connect.js'
import { chromiumCheck, keepScreenshot } from '../support/browser.js'
import {
  VIEWS,
  type Cookies,
  expectNoCsp,
  openPage,
  seriousAxe,
  setFirstPassword,
  showAs,
  dashboardSuite,
} from '../support/dashboard-browser.js'
import { clicks, writeClicks } from '../support/clicks.js'
import { decodePng } from '../support/qr.js'

const chromium = chromiumCheck()

const PASSWORD = 'link stats password 1'
const PAYLOADS = {
  title: `<script>window.__xss='title'</script><img src=x onerror="window.__xss='title-img'">`,
  referrer: `<img src=x onerror="window.__xss='referrer'">`,
}

/** A UTC day `n` days before today, at noon. */
const daysAgo = (n: number) =>
  new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10) + 'T12:00:00Z'

describe.skipIf(!chromium.ok)('a link’s statistics and QR code in Chromium', () => {
  let cookies: Cookies

  const suite = dashboardSuite()

  beforeAll(async () => {
    const link = await suite.s.api('POST', '/links', {
      url: 'https://example.com/landing',
      domain_id: 1,
      alias: 'mapped',
      title: PAYLOADS.title,
      privacy: 1,
    })
    expect(link.status).toBe(201)
    const db = openDatabase({ kind: 'sqlite', path: suite.s.dbPath })
    const countries: [string, number][] = [
      ['US', 60],
      ['DE', 25],
      ['BR', 12],
      ['IN', 8],
      ['FR', 5],
      ['AU', 3],
      ['ZA', 2],
      ['JP', 1],
    ]
    await writeClicks(db, [
      ...countries.flatMap(([country, n], i) => clicks(n, 1, daysAgo(i % 6), { country })),
      ...clicks(4, 1, daysAgo(2), { referrer: PAYLOADS.referrer, country: null }),
    ])
    await db.close()
    const { page } = await open()
    await setFirstPassword(page, suite.passwordLink, PASSWORD)
    cookies = await page.context().cookies()
  })

  const open = (options: { width?: number; dark?: boolean } = {}) =>
    openPage(suite.browser, { ...options, cookies })

  it('draws the statistics with a map; payloads stay text; screenshots', async () => {
    const { page, violations } = await open()
    for (const { width, dark, name } of VIEWS) {
      await showAs(page, { width, dark })
      await page.goto(`${suite.origin}/dashboard/links/1/stats`)
      expect(await page.locator('h1').textContent()).toBe('Link statistics')
      expect(await page.locator('#total-clicks strong').textContent()).toBe('120')
      expect(await page.locator('#link-title').textContent()).toBe(` · ${PAYLOADS.title}`)
      const referrer = page.locator('#top-referrer td', { hasText: 'onerror' })
      expect(await referrer.textContent()).toBe(PAYLOADS.referrer)
      // The map: every drawn country, the busiest in the darkest class, a real size on screen.
      const map = page.locator('#map-countries')
      expect(await map.locator('path').count()).toBe(176)
      expect(await map.locator('path[data-country="US"]').getAttribute('class')).toBe('map-5')
      expect(await map.locator('path[data-country="CN"]').getAttribute('class')).toBe('map-0')
      expect(await map.locator('path[data-country="DE"] title').textContent()).toBe(
        'Germany: 25 clicks',
      )
      const box = await map.boundingBox()
      expect(box!.width).toBeGreaterThan(width * 0.7)
      expect(box!.height / box!.width).toBeCloseTo(470 / 960, 2)
      // The US is filled with the accent colour, China with the empty-country colour.
      const fills = await page.evaluate(`[...document.querySelectorAll('#map-countries path')]
        .filter((p) => ['US', 'CN'].includes(p.dataset.country))
        .map((p) => p.dataset.country + ' ' + getComputedStyle(p).fill)`)
      expect(new Set(fills as string[]).size).toBe(2)
      // The legend's scale is drawn with the map's own fills: its "more clicks" end is the US's
      // fill in either scheme, so it never says "darker" where the fill is lighter.
      const scale = (await page.evaluate(`[...document.querySelectorAll('#map-legend rect')]
        .map((r) => getComputedStyle(r).fill)`)) as string[]
      const us = (await page.evaluate(
        `getComputedStyle(document.querySelector('#map-countries path[data-country="US"]')).fill`,
      )) as string
      expect(scale.length).toBe(5)
      expect(scale[4]).toBe(us)
      expect(scale[0]).not.toBe(us)
      expect(await page.locator('#map-legend').textContent()).toMatch(/^Fewer clicks.*more clicks/)
      // Chart labels, as drawn on the screen (font size times the chart's scale): 11 px or more.
      const smallest =
        (await page.evaluate(`Math.min(...[...document.querySelectorAll('.chart .tick')]
        .map((t) => parseFloat(getComputedStyle(t).fontSize) *
          t.ownerSVGElement.getBoundingClientRect().width / 720))`)) as number
      expect(smallest, name).toBeGreaterThanOrEqual(11)
      expect(await page.locator('text=IP Geolocation by').count()).toBe(2)
      expect(await page.evaluate('window.__xss === undefined')).toBe(true)
      await expectNoCsp(page, violations)
      expect(await seriousAxe(page)).toEqual([])
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width)
      await keepScreenshot(page, `dashboard-link-stats-${name}`, { fullPage: true })

      await page.goto(`${suite.origin}/dashboard/links/1/qr`)
      expect(await page.locator('h1').textContent()).toBe('QR code')
      await page.waitForFunction(
        `document.querySelector('#qr-image').complete && document.querySelector('#qr-image').naturalWidth > 0`,
      )
      // The QR code as Chromium draws the SVG, decoded from a screenshot of the image.
      const shot = await page.locator('#qr-image').screenshot()
      expect(decodePng(shot).text).toBe('http://short.test/mapped?qr=1')
      expect(await page.evaluate('window.__xss === undefined')).toBe(true)
      await expectNoCsp(page, violations)
      expect(await seriousAxe(page)).toEqual([])
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width)
      await keepScreenshot(page, `dashboard-link-qr-${name}`, { fullPage: true })
    }
  }, 120_000)

  it('keeps a bad period on the page with the messages, by keyboard', async () => {
    const { page } = await open()
    await page.goto(`${suite.origin}/dashboard/links/1/stats`)
    await page.focus('#period-from')
    await page.fill('#period-from', '2026-05-01')
    await page.fill('#period-to', '2026-04-01')
    await Promise.all([
      page.waitForURL(/from=2026-05-01&to=2026-04-01/),
      page.keyboard.press('Enter'),
    ])
    expect(await page.locator('#period-from-error').textContent()).toBe(
      'The from field must be a date before or equal to to.',
    )
    expect(await page.locator('#period-from').getAttribute('aria-invalid')).toBe('true')
    expect(await seriousAxe(page)).toEqual([])
  })
})
