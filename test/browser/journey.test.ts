/**
 * The dashboard's whole journey in real Chromium, against a real `slink serve` that trusts
 * X-Forwarded-For (so a visitor's country comes from it): sign in through the sign-in form,
 * make a pixel on the Pixels screen, make a link with a password, a country rule picked by
 * name and that pixel; a visitor from that country is asked for the password, then the pixel
 * page sends them to the country's destination; the click reaches the link's statistics with
 * its country; the link is edited; then it is bulk-deleted with two more, and the short URLs
 * answer "not found". Every page is free of CSP violations; screenshots of each step go to
 * test-artifacts/journey-*.png.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  chromiumCheck,
  keepScreenshot,
  startDestination,
  type Destination,
} from '../support/browser.js'
import {
  expectNoCsp,
  openPage,
  seriousAxe,
  setFirstPassword,
  startDashboard,
  stopDashboard,
} from '../support/dashboard-browser.js'
import { BROWSER_UA, eventually, type TestServer } from '../support/server.js'

const chromium = chromiumCheck()

const EMAIL = 'admin@localhost'
const PASSWORD = 'journey password 1'
const LINK_PASSWORD = 'visitor secret'
/** FDN's resolver, which the bundled DB-IP data places in France (test/unit/visitor-geoip). */
const FRENCH_VISITOR = '80.67.169.12'

interface Link {
  id: number
  alias: string
  url: string
  password: boolean
  target_type: number
  country_target: { key: string; value: string }[] | null
  pixels: { id: number; name: string; type: string; value: string }[]
}

describe.skipIf(!chromium.ok)('the whole dashboard journey in Chromium', () => {
  let s: TestServer
  let browser: Browser
  let destination: Destination
  let origin: string
  let passwordLink: string

  beforeAll(async () => {
    ;[{ s, browser, origin, passwordLink }, destination] = await Promise.all([
      startDashboard({ TRUST_PROXY: 'true' }),
      startDestination(),
    ])
  })
  afterAll(async () => {
    await stopDashboard(browser, s)
    await destination?.close()
  })

  /** A new browser context that records CSP violations and any dialog. */
  const open = (options: { width?: number; dark?: boolean; visitor?: boolean } = {}) =>
    openPage(browser, {
      width: options.width,
      dark: options.dark,
      // A visitor is a desktop Chrome (headless Chromium's own User-Agent is, rightly, a
      // bot's, whose visits are not counted) behind a proxy that names its French address.
      context: options.visitor
        ? { userAgent: BROWSER_UA, extraHTTPHeaders: { 'x-forwarded-for': FRENCH_VISITOR } }
        : {},
    })

  const shot = (page: Page, name: string) =>
    keepScreenshot(page, `journey-${name}`, { fullPage: true })

  async function link(id: number): Promise<Link> {
    const res = await s.api('GET', `/links/${id}`)
    expect(res.status).toBe(200)
    return (res.json as { data: Link }).data
  }

  /** Fills and saves the new-link form; answers the new link's id. */
  async function createLink(page: Page, url: string, alias: string): Promise<number> {
    await page.goto(`${origin}/dashboard/links/new`)
    await page.fill('#url', url)
    await page.fill('#alias', alias)
    await Promise.all([
      page.waitForURL(/\/dashboard\/links\/\d+\?created$/),
      page.click('#save-link'),
    ])
    expect(await page.locator('#notice-short-url').textContent()).toBe(`http://short.test/${alias}`)
    return Number(/links\/(\d+)\?/.exec(page.url())![1])
  }

  it('sign in → pixel → protected, targeted link → French visit → statistics → edit → bulk delete', async () => {
    // The first user's one-time link sets the password the journey signs in with.
    const first = await open()
    await setFirstPassword(first.page, passwordLink, PASSWORD)
    await first.context.close()

    // Sign in: the dashboard sends a stranger to the sign-in form.
    const { page, violations } = await open()
    await page.goto(`${origin}/dashboard/links`)
    expect(page.url()).toBe(`${origin}/login`)
    expect(await page.locator('h1').textContent()).toBe('Sign in')
    await page.fill('#email', EMAIL)
    await page.fill('#password', PASSWORD)
    await shot(page, '01-sign-in')
    await Promise.all([page.waitForURL(`${origin}/dashboard`), page.click('button[type=submit]')])
    expect(await page.locator('h1').textContent()).toBe('Overview')

    // A pixel, through the Pixels screen.
    await Promise.all([page.waitForURL(`${origin}/dashboard/pixels`), page.click('#nav-pixels')])
    await Promise.all([page.waitForURL(`${origin}/dashboard/pixels/new`), page.click('#new-item')])
    expect(await page.locator('h1').textContent()).toBe('New pixel')
    await page.fill('#name', 'Journey pixel')
    await page.selectOption('#type', { label: 'Facebook (Meta)' })
    await page.fill('#value', '1234567890')
    await Promise.all([
      page.waitForURL(`${origin}/dashboard/pixels?done=created`),
      page.click('text=Create pixel'),
    ])
    expect(await page.locator('#notice').textContent()).toBe('Pixel created.')
    expect(await page.locator('#items tbody tr').count()).toBe(1)
    expect(await page.locator('#items tbody tr strong').textContent()).toBe('Journey pixel')
    expect(await seriousAxe(page)).toEqual([])
    await shot(page, '02-pixel')
    const pixels = await s.api('GET', '/pixels')
    const [pixel] = (pixels.json as { data: { id: number; type: string; value: string }[] }).data
    expect(pixel).toMatchObject({ type: 'facebook', value: '1234567890' })

    // The link: a password, France (picked by name) sent elsewhere, and the pixel.
    await page.goto(`${origin}/dashboard/links`)
    await Promise.all([page.waitForURL(`${origin}/dashboard/links/new`), page.click('#new-link')])
    await page.fill('#url', `${destination.origin}/main`)
    await page.fill('#alias', 'journey')
    // The optional parts are closed sections: opened by their summaries.
    await page.click('#section-access summary')
    await page.fill('#password', LINK_PASSWORD)
    await page.click('#section-organise summary')
    await page.check('label:has-text("Journey pixel (facebook)")')
    await page.click('#section-targeting summary')
    await page.selectOption('#target_type', { label: 'Country' })
    await page.selectOption('#country-0-key', { label: 'France (FR)' })
    await page.fill('#country-0-value', `${destination.origin}/fr`)
    expect(await seriousAxe(page)).toEqual([])
    await shot(page, '03-new-link')
    await Promise.all([
      page.waitForURL(/\/dashboard\/links\/\d+\?created$/),
      page.click('#save-link'),
    ])
    expect(await page.locator('#notice-short-url').textContent()).toBe('http://short.test/journey')
    const id = Number(/links\/(\d+)\?/.exec(page.url())![1])
    expect(await link(id)).toMatchObject({
      alias: 'journey',
      url: `${destination.origin}/main`,
      password: true,
      target_type: 1,
      country_target: [{ key: 'FR', value: `${destination.origin}/fr` }],
      pixels: [{ id: pixel!.id, type: 'facebook', value: '1234567890' }],
    })
    await expectNoCsp(page, violations)

    // A visitor from France: the password form, a wrong password, then the right one.
    const visitor = await open({ visitor: true })
    const vendors: string[] = []
    // The pixel's vendor requests (the only https ones here) are answered locally.
    await visitor.context.route(
      (url) => url.protocol === 'https:',
      (route) => {
        vendors.push(route.request().url())
        const script = route.request().resourceType() === 'script'
        return route.fulfill({
          status: 200,
          contentType: script ? 'application/javascript' : 'image/gif',
          body: script ? '' : Buffer.from('R0lGODlhAQABAAAAACwAAAAAAQABAAA=', 'base64'),
        })
      },
    )
    const form = await visitor.page.goto(`${origin}/journey`)
    expect(form!.status()).toBe(200)
    expect(await visitor.page.locator('h1').textContent()).toBe('Password required')
    expect(await visitor.page.content()).not.toContain(destination.origin)
    await visitor.page.fill('#password', 'not it')
    const [wrong] = await Promise.all([
      visitor.page.waitForResponse((r) => r.request().method() === 'POST'),
      visitor.page.press('#password', 'Enter'),
    ])
    expect(wrong.status()).toBe(200)
    expect(await visitor.page.locator('.error').textContent()).toBe('The password is not correct.')
    expect(await seriousAxe(visitor.page)).toEqual([])
    await shot(visitor.page, '04-visitor-password')

    await visitor.page.fill('#password', LINK_PASSWORD)
    const answers: { method: string; url: string; status: number; location: string | null }[] = []
    visitor.page.on('response', (r) => {
      if (r.url().startsWith(origin))
        answers.push({
          method: r.request().method(),
          url: r.url(),
          status: r.status(),
          location: r.headers()['location'] ?? null,
        })
    })
    await Promise.all([
      visitor.page.waitForURL(`${destination.origin}/fr`, { timeout: 5000 }),
      visitor.page.press('#password', 'Enter'),
    ])
    // The right password: 303 back to the short URL, which (remembered now) is the pixel page;
    // it loads the vendor's script with the pixel's value, then goes on to France's address.
    expect(answers).toEqual([
      { method: 'POST', url: `${origin}/journey`, status: 303, location: '/journey' },
      { method: 'GET', url: `${origin}/journey`, status: 200, location: null },
    ])
    expect(vendors.sort()).toEqual([
      'https://connect.facebook.net/en_US/fbevents.js',
      'https://www.facebook.com/tr?id=1234567890&ev=PageView&noscript=1',
    ])
    expect(await visitor.page.locator('h1').textContent()).toBe('Landed on /fr')
    expect(destination.visits).toEqual(['/fr'])
    await expectNoCsp(visitor.page, visitor.violations)

    // The click is written in the background: the statistics show it once it is.
    const stats = `${origin}/dashboard/links/${id}/stats`
    const total = await eventually(
      async () => {
        await page.goto(stats)
        return page.locator('#total-clicks strong').textContent()
      },
      (text) => text === '1',
      5000,
    )
    expect(total).toBe('1')
    expect(await page.locator('h1').textContent()).toBe('Link statistics')
    expect(await page.locator('#total-visitors strong').textContent()).toBe('1')
    const countries = page.locator('#top-country tbody tr')
    expect(await countries.count()).toBe(1)
    expect(await countries.locator('td').allTextContents()).toEqual(['France FR', '1', '100.0 %'])
    expect(await page.locator('#map-countries path[data-country="FR"] title').textContent()).toBe(
      'France: 1 click',
    )
    await expectNoCsp(page, violations)
    expect(await seriousAxe(page)).toEqual([])
    await shot(page, '05-stats')
    // The same page at phone width, in dark mode.
    const phone = await open({ width: 390, dark: true })
    await phone.context.addCookies(await page.context().cookies())
    await phone.page.goto(stats)
    expect(await phone.page.locator('#total-clicks strong').textContent()).toBe('1')
    expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      390,
    )
    expect(await seriousAxe(phone.page)).toEqual([])
    await shot(phone.page, '05-stats-phone-dark')
    await expectNoCsp(phone.page, phone.violations)

    // Edit: a new destination; the password, the rule and the pixel stay.
    await page.goto(`${origin}/dashboard/links/${id}`)
    expect(await page.locator('h1').textContent()).toBe('Edit journey')
    await page.fill('#url', `${destination.origin}/edited`)
    await Promise.all([
      page.waitForURL(`${origin}/dashboard/links/${id}?saved`),
      page.click('#save-link'),
    ])
    expect(await page.locator('#link-notice').textContent()).toContain('The changes were saved:')
    expect(await page.inputValue('#url')).toBe(`${destination.origin}/edited`)
    expect(await link(id)).toMatchObject({
      url: `${destination.origin}/edited`,
      password: true,
      country_target: [{ key: 'FR', value: `${destination.origin}/fr` }],
      pixels: [{ id: pixel!.id }],
    })
    await shot(page, '06-edited')

    // Two more links, then all three deleted in one bulk action, after its confirmation page.
    const others = [
      await createLink(page, `${destination.origin}/two`, 'journey-2'),
      await createLink(page, `${destination.origin}/three`, 'journey-3'),
    ]
    await page.goto(`${origin}/dashboard/links`)
    expect(await page.locator('#links tbody tr').count()).toBe(3)
    for (const alias of ['journey', 'journey-2', 'journey-3'])
      await page.check(`[aria-label="Select http://short.test/${alias}"]`)
    // The actions on the selection open from "With selected".
    await page.click('#bulk-menu summary')
    await page.selectOption('#bulk-action', 'delete')
    await shot(page, '07-selected')
    await Promise.all([
      page.waitForURL(`${origin}/dashboard/links/bulk`),
      page.click('#bulk-apply'),
    ])
    expect(await page.locator('h1').textContent()).toBe('Delete 3 links?')
    expect(await page.locator('.panel li strong').allTextContents()).toEqual([
      'http://short.test/journey',
      'http://short.test/journey-2',
      'http://short.test/journey-3',
    ])
    expect(await seriousAxe(page)).toEqual([])
    await shot(page, '08-confirm-delete')
    await Promise.all([
      page.waitForURL(`${origin}/dashboard/links?page=1&done=deleted-3`),
      page.click('#confirm-delete'),
    ])
    expect(await page.locator('#links-notice').textContent()).toBe('3 links were deleted.')
    expect(await page.locator('#links-count').textContent()).toMatch(/^You have no links yet/)
    expect(await page.locator('#links').count()).toBe(0)
    await shot(page, '09-deleted')
    await expectNoCsp(page, violations)
    for (const gone of [id, ...others])
      expect((await s.api('GET', `/links/${gone}`)).status).toBe(404)

    // The short URLs are gone for visitors too (the redirect cache forgot them).
    for (const alias of ['journey', 'journey-2', 'journey-3']) {
      const res = await s.send(`/${alias}`, {
        headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': FRENCH_VISITOR },
      })
      expect(res.status, alias).toBe(404)
      expect(res.body).toContain('<h1>Link not found</h1>')
    }
    const gone = await visitor.page.goto(`${origin}/journey`)
    expect(gone!.status()).toBe(404)
    expect(await visitor.page.locator('h1').textContent()).toBe('Link not found')
    await shot(visitor.page, '10-not-found')
  }, 120_000)
})
