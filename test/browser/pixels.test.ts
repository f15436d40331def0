/**
 * The pixel page in real Chromium: every vendor's script or beacon is requested with its
 * pixel's value (answered locally, nothing leaves the machine), then the browser lands on the
 * destination its language picks, served by a local server. With PIXEL_CONSENT=1, nothing
 * loads until the visitor accepts; declining goes straight on without any vendor request.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  chromiumCheck,
  releaseChromium,
  sharedChromium,
  startDestination,
  type Destination,
} from '../support/browser.js'
import { PIXEL_REDIRECT_DELAY_MS, PIXEL_REFRESH_SECONDS } from '../../src/pages/pixel-page.js'
import { startServer, type TestServer } from '../support/server.js'

const chromium = chromiumCheck()

/** A desktop Chrome (the headless browser's own User-Agent is, rightly, a bot's). */
const LINUX_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'

/** Each type's value, and what of it shows in the vendor's request URL. */
const PIXELS: { type: string; value: string; seen: string }[] = [
  { type: 'adroll', value: 'ADV123-PIX456', seen: 'https://s.adroll.com/j/ADV123/roundtrip.js' },
  { type: 'bing', value: '343210987', seen: '343210987' },
  { type: 'facebook', value: '1234567890', seen: '1234567890' },
  { type: 'google-ads', value: 'AW-987654321', seen: 'AW-987654321' },
  { type: 'google-analytics', value: 'G-ABC123XYZ', seen: 'G-ABC123XYZ' },
  { type: 'google-tag-manager', value: 'GTM-K9X8Y7', seen: 'GTM-K9X8Y7' },
  { type: 'linkedin', value: '7654321', seen: '7654321' },
  { type: 'pinterest', value: '2612345678901', seen: '2612345678901' },
  { type: 'quora', value: 'q0a1b2c3d4', seen: 'q0a1b2c3d4' },
  { type: 'twitter', value: 'o1x2y', seen: 'o1x2y' },
]

describe.skipIf(!chromium.ok)('the pixel page in Chromium', () => {
  let plain: TestServer
  let consent: TestServer
  let browser: Browser
  let destination: Destination

  beforeAll(async () => {
    ;[plain, consent, browser, destination] = await Promise.all([
      startServer(),
      startServer({ PIXEL_CONSENT: '1' }),
      sharedChromium(),
      startDestination(),
    ])
  })
  afterAll(async () => {
    await releaseChromium(browser)
    await destination?.close()
    await Promise.all([plain?.stop(), consent?.stop()])
  })

  /** A page whose every https request (only vendors use https here) is answered locally. */
  async function open(options: { locale: string; userAgent: string }) {
    const context = await browser.newContext(options)
    const requested: string[] = []
    await context.route(
      (url) => url.protocol === 'https:',
      (route) => {
        requested.push(route.request().url())
        const script = route.request().resourceType() === 'script'
        return route.fulfill({
          status: 200,
          contentType: script ? 'application/javascript' : 'image/gif',
          body: script ? '' : Buffer.from('R0lGODlhAQABAAAAACwAAAAAAQABAAA=', 'base64'),
        })
      },
    )
    const page: Page = await context.newPage()
    return { page, requested }
  }

  let named = 0
  async function pixelIds(s: TestServer, pixels: typeof PIXELS): Promise<number[]> {
    const ids: number[] = []
    for (const p of pixels) {
      const res = await s.api('POST', '/pixels', {
        name: `p${named++}`,
        type: p.type,
        value: p.value,
      })
      expect(res.status).toBe(201)
      ids.push((res.json as { data: { id: number } }).data.id)
    }
    return ids
  }

  async function link(s: TestServer, form: Record<string, string | number>, pixels: number[]) {
    const ids = Object.fromEntries(pixels.map((id, i) => [`pixel_ids[${i}]`, id]))
    const res = await s.api('POST', '/links', { domain_id: 1, ...form, ...ids })
    expect(res.status).toBe(201)
    return (res.json as { data: { alias: string } }).data.alias
  }

  it('requests every vendor with its value, then lands on the language-targeted destination', async () => {
    const alias = await link(
      plain,
      {
        url: `${destination.origin}/default`,
        target_type: 3,
        'language[0][key]': 'fr',
        'language[0][value]': `${destination.origin}/fr`,
        'language[1][key]': 'de',
        'language[1][value]': `${destination.origin}/de`,
      },
      await pixelIds(plain, PIXELS),
    )
    const { page, requested } = await open({ locale: 'de-DE', userAgent: LINUX_CHROME })
    await page.goto(`http://short.test:${plain.port}/${alias}?utm_source=mail`)
    await page.waitForURL(`${destination.origin}/de?utm_source=mail`, { timeout: 5000 })
    expect(await page.locator('h1').textContent()).toBe('Landed on /de?utm_source=mail')
    expect(destination.visits).toContain('/de?utm_source=mail')
    for (const pixel of PIXELS) {
      expect(
        requested.some((url) => url.includes(pixel.seen)),
        `${pixel.type}: ${requested.join('\n')}`,
      ).toBe(true)
    }
  })

  it('asks first with PIXEL_CONSENT=1; declining goes on at once with no vendor request', async () => {
    const pixels = PIXELS.filter((p) => ['facebook', 'linkedin'].includes(p.type))
    const alias = await link(
      consent,
      { url: `${destination.origin}/consented` },
      await pixelIds(consent, pixels),
    )
    // The page's timers run on a clock the test moves. It would have seen a page leave by
    // itself: the same link without the consent step leaves once the clock passes the delay.
    const control = await open({ locale: 'en-US', userAgent: LINUX_CHROME })
    const plainAlias = await link(
      plain,
      { url: `${destination.origin}/control` },
      await pixelIds(plain, pixels),
    )
    await control.page.clock.install()
    await control.page.goto(`http://short.test:${plain.port}/${plainAlias}`)
    await Promise.all([
      control.page.waitForURL(`${destination.origin}/control`, { timeout: 5000 }),
      control.page.clock.runFor(PIXEL_REDIRECT_DELAY_MS + 100),
    ])

    const { page, requested } = await open({ locale: 'en-US', userAgent: LINUX_CHROME })
    await page.clock.install()
    await page.goto(`http://short.test:${consent.port}/${alias}`)
    expect(await page.locator('h1').textContent()).toBe('Before you continue')
    // Past the moment the page would leave without consent: no <meta refresh>, and no timer
    // leaves as the clock runs past the delay.
    expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0)
    await page.clock.runFor(Math.max(PIXEL_REDIRECT_DELAY_MS, PIXEL_REFRESH_SECONDS * 1000) + 300)
    expect(page.url()).toBe(`http://short.test:${consent.port}/${alias}`)
    expect(requested).toEqual([])
    await Promise.all([
      page.waitForURL(`${destination.origin}/consented`, { timeout: 5000 }),
      page.click('text=Continue without tracking'),
    ])
    expect(requested).toEqual([])
  })

  it('with consent given, loads the pixels, then lands on the platform-targeted destination', async () => {
    const pixels = PIXELS.filter((p) => ['facebook', 'linkedin'].includes(p.type))
    const alias = await link(
      consent,
      {
        url: `${destination.origin}/consented`,
        target_type: 2,
        'platform[0][key]': 'iOS',
        'platform[0][value]': `${destination.origin}/ios`,
      },
      await pixelIds(consent, pixels),
    )
    const { page, requested } = await open({ locale: 'en-US', userAgent: IPHONE })
    await page.goto(`http://short.test:${consent.port}/${alias}`)
    await Promise.all([
      page.waitForURL(`${destination.origin}/ios`, { timeout: 5000 }),
      page.click('text=Accept and continue'),
    ])
    for (const pixel of pixels) expect(requested.some((url) => url.includes(pixel.seen))).toBe(true)
  })
})
