/**
 * The visitor pages in real Chromium: a password link's form leads to its destination, the
 * stats page draws its charts and tables (a screenshot is kept in test-artifacts/), and a
 * password-protected stats page opens with its password and stays open.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  chromiumCheck,
  keepScreenshot,
  releaseChromium,
  sharedChromium,
  startDestination,
  type Destination,
} from '../support/browser.js'
import { BROWSER_UA, eventually, startServer, type TestServer } from '../support/server.js'

const chromium = chromiumCheck()

/** What the test reads of the page's window (the DOM types are not in this project's lib). */
interface InPage {
  getComputedStyle(element: unknown): { fill: string }
}

describe.skipIf(!chromium.ok)('pages in Chromium', () => {
  let s: TestServer
  let browser: Browser
  let destination: Destination
  let context: BrowserContext
  let page: Page
  let short: string

  beforeAll(async () => {
    ;[s, browser, destination] = await Promise.all([
      startServer(),
      sharedChromium(),
      startDestination(),
    ])
    short = `http://short.test:${s.port}`
  })
  afterAll(async () => {
    await releaseChromium(browser)
    await destination?.close()
    await s?.stop()
  })

  async function fresh(): Promise<Page> {
    await context?.close()
    context = await browser.newContext({ locale: 'en-US' })
    page = await context.newPage()
    return page
  }

  async function link(form: Record<string, string | number>) {
    const res = await s.api('POST', '/links', { domain_id: 1, ...form })
    expect(res.status).toBe(201)
    return (res.json as { data: { id: number; alias: string } }).data
  }

  it('follows a password link: form, wrong password, right password, destination', async () => {
    const { alias } = await link({
      url: `${destination.origin}/secret?from=short`,
      password: 'open sesame',
    })
    const p = await fresh()
    await p.goto(`${short}/${alias}`)
    expect(await p.locator('h1').textContent()).toBe('Password required')
    await p.fill('#password', 'wrong')
    await p.click('button[type=submit]')
    expect(await p.locator('.error').textContent()).toBe('The password is not correct.')
    await p.fill('#password', 'open sesame')
    await Promise.all([
      p.waitForURL(`${destination.origin}/secret?from=short`),
      p.click('button[type=submit]'),
    ])
    expect(await p.locator('h1').textContent()).toBe('Landed on /secret?from=short')
    // The cookie remembers the password: the short link now goes straight on.
    await p.goto(`${short}/${alias}`)
    expect(p.url()).toBe(`${destination.origin}/secret?from=short`)
  })

  it('draws the stats page: figures, one bar a day, one an hour, the tables (screenshot kept)', async () => {
    const { id, alias } = await link({ url: `${destination.origin}/stats-target` })
    for (const [ua, language] of [
      [BROWSER_UA, 'de-DE'],
      [BROWSER_UA, 'en'],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
        'fr',
      ],
    ] as const)
      await s.send(`/${alias}`, {
        headers: {
          'user-agent': ua,
          'accept-language': language,
          referer: 'https://news.example.org/x',
        },
      })
    await eventually(
      async () =>
        ((await s.api('GET', `/links/${id}`)).json as { data: { clicks: number } }).data.clicks,
      (c) => c === 3,
    )
    const p = await fresh()
    const errors: string[] = []
    p.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    const response = await p.goto(`${short}/${alias}/stats`)
    expect(response?.status()).toBe(200)
    expect(await p.locator('#total-clicks').textContent()).toBe('3')
    // The first two visits share address and User-Agent: one visitor.
    expect(await p.locator('#unique-visitors').textContent()).toBe('2')
    expect(await p.locator('#chart-days rect.bar').count()).toBe(30)
    expect(await p.locator('#chart-hours rect.bar').count()).toBe(24)
    const tallest = await p.locator('#chart-days rect.bar').last().getAttribute('height')
    expect(Number(tallest)).toBeGreaterThan(0)
    // The stylesheet (with its nonce) applies: bars are filled with the accent colour.
    const fill = await p
      .locator('#chart-days rect.bar')
      .first()
      .evaluate((el) => (globalThis as unknown as InPage).getComputedStyle(el).fill)
    expect(fill).toMatch(/^rgb\(/)
    expect(fill).not.toBe('rgb(0, 0, 0)')
    for (const table of ['countries', 'referrers', 'platforms', 'browsers', 'devices', 'languages'])
      expect(
        await p.locator(`section.top h2`, { hasText: new RegExp(table, 'i') }).count(),
        table,
      ).toBe(1)
    expect(await p.locator('#top-referrer td').first().textContent()).toBe('news.example.org')
    expect(await p.locator('#top-language tbody tr').count()).toBe(3)
    expect(await p.locator('#top-device tbody tr').count()).toBe(2)
    await keepScreenshot(p, 'stats-page', { fullPage: true })
    expect(errors).toEqual([])
    // A chosen period: one bar per day of it.
    await p.click('text=Last 7 days')
    expect(await p.locator('#chart-days rect.bar').count()).toBe(7)
  })

  it('opens a password-protected stats page with its password, and keeps it open', async () => {
    const { alias } = await link({
      url: `${destination.origin}/private`,
      privacy: 2,
      privacy_password: 'for stats',
    })
    const p = await fresh()
    await p.goto(`${short}/${alias}/stats`)
    expect(await p.locator('h1').textContent()).toBe('Statistics password required')
    expect(await p.locator('#chart-days').count()).toBe(0)
    await p.fill('#password', 'nope')
    await p.click('button[type=submit]')
    expect(await p.locator('.error').textContent()).toBe('The password is not correct.')
    await p.fill('#password', 'for stats')
    await Promise.all([p.waitForURL(`${short}/${alias}/stats`), p.click('button[type=submit]')])
    expect(await p.locator('h1').textContent()).toBe('Statistics')
    expect(await p.locator('#chart-days rect.bar').count()).toBe(30)
    await p.reload()
    expect(await p.locator('h1').textContent()).toBe('Statistics')
    const cookies = await context.cookies()
    expect(cookies.map((c) => [c.name.replace(/\d+$/, 'N'), c.httpOnly, c.sameSite])).toEqual([
      ['slink_st_N', true, 'Lax'],
    ])
  })
})
