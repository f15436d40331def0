/**
 * The links list in real Chromium, against `slink serve`, at phone and desktop width, light and
 * dark: one line per link at 1280 px, the first link on a phone's first screen, the navigation
 * folded into a menu on a phone, the row menu and the bar's menus opening without JavaScript,
 * every text at least 11 px, nothing wider than the screen, no CSP violation, no serious or
 * critical axe-core violation (contrast included: the dark delete button too). Screenshots under
 * test-artifacts/.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumCheck, keepScreenshot } from '../support/browser.js'
import {
  VIEWS,
  expectNoCsp,
  inEachView,
  openPage,
  seriousAxe,
  setFirstPassword,
  startDashboard,
  stopDashboard,
  type Cookies,
  showAs,
} from '../support/dashboard-browser.js'
import type { TestServer } from '../support/server.js'

const chromium = chromiumCheck()

/** The smallest font size (px) of any element with its own visible text. */
const SMALLEST_TEXT = `Math.min(...Array.from(document.querySelectorAll('body *'))
  .filter((e) => Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim()))
  .filter((e) => e.getClientRects().length > 0)
  .map((e) => parseFloat(getComputedStyle(e).fontSize)))`

describe.skipIf(!chromium.ok)('the links list in Chromium', () => {
  let s: TestServer
  let browser: Browser
  let origin: string
  let cookies: Cookies
  let firstId = 0

  beforeAll(async () => {
    let passwordLink: string
    ;({ s, browser, origin, passwordLink } = await startDashboard())
    const space = await s.api('POST', '/spaces', { name: 'Launch', color: 2 })
    const pixel = await s.api('POST', '/pixels', { name: 'Meta', type: 'facebook', value: '42' })
    const spaceId = (space.json as { data: { id: number } }).data.id
    const pixelId = (pixel.json as { data: { id: number } }).data.id
    for (let i = 1; i <= 12; i++) {
      const res = await s.api('POST', '/links', {
        url: `https://www.example-${i}.com/a/rather/long/path/to/a/landing/page?utm_source=newsletter&n=${i}`,
        alias: `campaign-${i}`,
        ...(i % 3 === 0 ? { title: `Spring campaign number ${i} with a long title` } : {}),
        ...(i % 2 === 0 ? { password: 'secret', space_id: spaceId } : {}),
        ...(i % 4 === 0 ? { disabled: 1, 'pixel_ids[0]': pixelId } : {}),
        ...(i % 5 === 0 ? { expiration_clicks: 10 } : {}),
        ...(i % 6 === 0
          ? {
              'country[0][key]': 'FR',
              'country[0][value]': 'https://example.fr/',
              'rotation[0][value]': 'https://b.example/',
            }
          : {}),
      })
      expect(res.status).toBe(201)
      if (i === 1) firstId = (res.json as { data: { id: number } }).data.id
    }
    const { page } = await openPage(browser)
    await setFirstPassword(page, passwordLink, 'list password 1')
    cookies = await page.context().cookies()
  })
  afterAll(async () => {
    await stopDashboard(browser, s)
  })

  it('one line per link on a desktop, the first link on a phone’s first screen, in every view', async () => {
    const { page, violations } = await openPage(browser, { cookies })
    for (const { width, dark, name } of VIEWS) {
      await showAs(page, { width, dark }, width === 390 ? 844 : 800)
      await page.goto(`${origin}/dashboard/links`)
      await keepScreenshot(page, `dashboard-link-list-${name}`)
      expect(await page.evaluate('document.documentElement.scrollWidth'), name).toBeLessThanOrEqual(
        width,
      )
      expect(await page.evaluate(SMALLEST_TEXT), name).toBeGreaterThanOrEqual(11)
      const first = (await page.locator('#links tbody tr').first().boundingBox())!
      if (width === 1280) {
        // Every row is one line of text (badges included): no row taller than 44 px.
        const heights = await page.$$eval('#links tbody tr', (rows) =>
          rows.map((r) => r.getBoundingClientRect().height),
        )
        expect(Math.max(...heights), name).toBeLessThanOrEqual(44)
        expect(first.y, name).toBeLessThan(300)
      } else {
        // The short link of the first row is wholly on the first screen.
        const short = (await page.locator('#links tbody tr .short-text').first().boundingBox())!
        expect(short.y + short.height, name).toBeLessThanOrEqual(844)
        // The navigation is folded: one row of top bar.
        const bar = (await page.locator('.topbar').boundingBox())!
        expect(bar.height, name).toBeLessThan(64)
      }
      expect(await seriousAxe(page), name).toEqual([])
      // The menus: the row's, and on a phone the navigation's.
      await page.click('#links tbody tr:first-child .row-menu summary')
      expect(
        await page.locator('#links tbody tr:first-child .menu a:has-text("Edit")').isVisible(),
      ).toBe(true)
      expect(await seriousAxe(page), name).toEqual([])
      await keepScreenshot(page, `dashboard-link-list-menu-${name}`)
      if (width === 390) {
        expect(await page.locator('#nav-links').isVisible()).toBe(false)
        await page.click('#nav-fold summary')
        expect(await page.locator('#nav-fold a:has-text("Pixels")').isVisible()).toBe(true)
        await keepScreenshot(page, `dashboard-nav-menu-${name}`)
      } else {
        expect(await page.locator('#nav-fold').isVisible()).toBe(false)
      }
      // The bar's menus open below it.
      await page.goto(`${origin}/dashboard/links`)
      await page.click('#filters-menu summary')
      await page.click('#bulk-menu summary')
      expect(await page.locator('#filter-status').isVisible()).toBe(true)
      expect(await page.locator('#bulk-action').isVisible()).toBe(true)
      expect(await seriousAxe(page), name).toEqual([])
      expect(await page.evaluate('document.documentElement.scrollWidth'), name).toBeLessThanOrEqual(
        width,
      )
      await keepScreenshot(page, `dashboard-link-list-bars-${name}`, { fullPage: true })
      // The delete confirmation's button keeps its contrast in the dark too.
      await page.goto(`${origin}/dashboard/links/${firstId}/delete`)
      expect(await seriousAxe(page), name).toEqual([])
      await expectNoCsp(page, violations)
    }
  }, 90_000)

  it('the Webhooks screens, a dashboard 404 and Make admin in every view', async () => {
    const made = await s.api('POST', '/webhooks', {
      url: 'https://hooks.example/in',
      'events[0]': 'link.created',
    })
    expect(made.status).toBe(201)
    const hookId = (made.json as { data: { id: number } }).data.id
    expect((await s.api('POST', `/webhooks/${hookId}/test`, {})).status).toBe(202)
    const { page, violations } = await openPage(browser, { cookies })
    for (const [path, shot] of [
      ['/dashboard/webhooks', 'webhooks'],
      [`/dashboard/webhooks/${hookId}`, 'webhook'],
      ['/dashboard/links/9999', 'not-found'],
    ] as const) {
      await page.goto(`${origin}${path}`)
      await inEachView(page, async ({ width, name }) => {
        await keepScreenshot(page, `dashboard-${shot}-${name}`, { fullPage: true })
        expect(await seriousAxe(page), `${shot} ${name}`).toEqual([])
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          width,
        )
        expect(await page.evaluate(SMALLEST_TEXT), `${shot} ${name}`).toBeGreaterThanOrEqual(11)
        // The top bar stays one row at both widths (nine sections at 1280 px).
        expect((await page.locator('.topbar').boundingBox())!.height).toBeLessThan(64)
      })
      await expectNoCsp(page, violations)
    }
  }, 90_000)

  it('the row menu and the navigation menu open without JavaScript', async () => {
    const { page } = await openPage(browser, {
      width: 390,
      cookies,
      context: { javaScriptEnabled: false },
      cspEvents: false,
    })
    await page.goto(`${origin}/dashboard/links`)
    await page.click('#nav-fold summary')
    expect(await page.locator('#nav-fold a:has-text("Links")').isVisible()).toBe(true)
    await page.click('#links tbody tr:first-child .row-menu summary')
    await page.click('#links tbody tr:first-child .menu a:has-text("Edit")')
    await page.waitForURL(/\/dashboard\/links\/\d+$/)
  })
})
