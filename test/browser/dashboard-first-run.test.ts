/**
 * The dashboard's first minute in real Chromium: the first-run Overview with the shorten box
 * and the next steps; shortening in one step with htmx (the page stays, the link shows with
 * Copy and its QR code) and without JavaScript (a post and a redirect); the link form with its
 * main fields, the Create button in view at 1280×800, the URL focused and the lists of the
 * chosen kind only; the keyboard shortcuts, the theme button and the bookmarklet. Every screen
 * without a serious axe violation or a CSP refusal, no text under 11 px and nothing wider than
 * a 390 px phone; screenshots at both widths and themes in test-artifacts/.
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
  VIEWS,
  type Cookies,
  cspEvents,
  expectNoCsp,
  openPage,
  seriousAxe,
  setFirstPassword,
  startDashboard,
  stopDashboard,
  showAs,
} from '../support/dashboard-browser.js'
import type { TestServer } from '../support/server.js'

const chromium = chromiumCheck()

const PASSWORD = 'first run password 1'

/** The smallest computed font size of an element that shows text of its own. */
const SMALLEST_TEXT = `Math.min(...[...document.querySelectorAll('body *')]
  .filter((e) => e.checkVisibility() && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== ''))
  .map((e) => parseFloat(getComputedStyle(e).fontSize)))`

describe.skipIf(!chromium.ok)('the dashboard’s first minute in Chromium', () => {
  let s: TestServer
  let browser: Browser
  let origin: string
  let cookies: Cookies
  let destination: Destination

  const open = (options: { width?: number; dark?: boolean; javaScript?: boolean } = {}) =>
    openPage(browser, {
      width: options.width,
      dark: options.dark,
      context: { javaScriptEnabled: options.javaScript ?? true },
      cookies,
      cspEvents: options.javaScript ?? true,
    })

  /** Axe, text size and width checks of the page as it is, and its screenshot. */
  async function look(page: Page, screen: string, view: { width: number; name: string }) {
    expect(await seriousAxe(page), `${screen} ${view.name}`).toEqual([])
    await keepScreenshot(page, `first-run-${screen}-${view.name}`, { fullPage: true })
    expect(await page.evaluate('document.documentElement.scrollWidth'), screen).toBeLessThanOrEqual(
      view.width,
    )
    if (view.width === 390) {
      expect(await page.evaluate(SMALLEST_TEXT), `${screen} text`).toBeGreaterThanOrEqual(11)
    }
  }

  beforeAll(async () => {
    let passwordLink: string
    ;[{ s, browser, origin, passwordLink }, destination] = await Promise.all([
      startDashboard(),
      startDestination(),
    ])
    const { page } = await openPage(browser)
    await setFirstPassword(page, passwordLink, PASSWORD)
    cookies = await page.context().cookies()
  })
  afterAll(async () => {
    await destination?.close()
    await stopDashboard(browser, s)
  })

  it('guides the first run: the Overview offers the box and the next steps, the URL focused', async () => {
    const { page, violations } = await open()
    for (const view of VIEWS) {
      await showAs(page, view)
      await page.goto(`${origin}/dashboard`)
      expect(await page.evaluate('document.activeElement.id')).toBe('shorten-url')
      expect(await page.locator('#next-steps li').count()).toBe(4)
      expect(await page.locator('#chart-overview').count()).toBe(0)
      await look(page, 'overview-empty', view)
      await page.goto(`${origin}/dashboard/links`)
      expect(await page.locator('#links-count').textContent()).toMatch(/^You have no links yet/)
      await look(page, 'links-empty', view)
      await expectNoCsp(page, violations)
    }
  }, 120_000)

  it('shortens in one step with htmx: the page stays, the link shows with Copy and QR', async () => {
    const { page, violations } = await open()
    for (const view of VIEWS.filter((v) => v.width === 390 || !v.dark)) {
      await showAs(page, view)
      await page.goto(`${origin}/dashboard`)
      await page.fill('#shorten-url', `example.org/${view.name}`)
      const answered = page.waitForResponse(
        (r) => r.url() === `${origin}/dashboard/shorten` && r.request().method() === 'POST',
      )
      await page.press('#shorten-url', 'Enter')
      expect((await answered).status()).toBe(200)
      await page.waitForSelector('#shortened-url')
      expect(page.url()).toBe(`${origin}/dashboard`)
      expect(await page.locator('#shortened-destination').textContent()).toBe(
        `to https://example.org/${view.name}`,
      )
      const short = await page.locator('#shortened-url').textContent()
      expect(short).toMatch(/^http:\/\/short\.test\/[A-Za-z0-9]+$/)
      expect(await page.locator('#shorten-result button.copy').isVisible()).toBe(true)
      // The QR code, from the dashboard's own qr.svg route, drawn.
      await expect
        .poll(() => page.evaluate(`document.querySelector('.qr-thumb').naturalWidth`))
        .toBeGreaterThan(0)
      expect(await page.inputValue('#shorten-url')).toBe('')
      expect(await cspEvents(page), `swap ${view.name}`).toEqual([])
      await look(page, 'overview-shortened', view)
      expect(await cspEvents(page), `look ${view.name}`).toEqual([])
      // A refused URL: the message in the box, in people's words, the field kept.
      await page.fill('#shorten-url', 'javascript:alert(1)')
      await page.press('#shorten-url', 'Enter')
      await page.waitForSelector('#shorten-url-error')
      expect(await page.locator('#shorten-url-error').textContent()).toBe(
        '“Long URL” must be a web address, such as https://example.org/page.',
      )
      expect(page.url()).toBe(`${origin}/dashboard`)
      expect(await cspEvents(page), `422 ${view.name}`).toEqual([])
      expect(await seriousAxe(page)).toEqual([])
      await expectNoCsp(page, violations)
    }
  }, 120_000)

  it('shortens without JavaScript: a plain post, back to the Links page with the link', async () => {
    const { page, violations } = await open({ javaScript: false })
    await page.goto(`${origin}/dashboard/links`)
    await page.fill('#shorten-url', 'example.org/no-js')
    await Promise.all([
      page.waitForURL(new RegExp(`^${origin}/dashboard/links\\?shortened=\\d+$`)),
      page.press('#shorten-url', 'Enter'),
    ])
    expect(await page.locator('#shortened-destination').textContent()).toBe(
      'to https://example.org/no-js',
    )
    expect(await page.locator('#links tbody tr').count()).toBeGreaterThan(0)
    expect(violations).toEqual([])
  })

  it('shows the link form’s main fields first, Create in view at 1280×800, lists of the chosen kind', async () => {
    const { page, violations } = await open()
    for (const view of VIEWS) {
      await showAs(page, view, view.width === 390 ? 844 : 800)
      await page.goto(`${origin}/dashboard/links/new`)
      expect(await page.evaluate('document.activeElement.id')).toBe('url')
      const create = await page.locator('#save-link').boundingBox()
      if (view.width === 1280) expect(create!.y + create!.height).toBeLessThanOrEqual(800)
      for (const id of ['access', 'statistics', 'expiry', 'targeting', 'organise'])
        expect(await page.locator(`#section-${id}`).getAttribute('open')).toBeNull()
      await look(page, 'link-form', view)
      await page.click('#section-targeting summary')
      await page.click('#section-statistics summary')
      expect(await page.locator('#privacy_password').isVisible()).toBe(false)
      await page.selectOption('#privacy', '2')
      expect(await page.locator('#privacy_password').isVisible()).toBe(true)
      expect(await page.locator('#state-statistics').textContent()).toBe('With a password')
      const shown = async () =>
        Promise.all(
          ['country', 'platform', 'language', 'rotation'].map((l) =>
            page.locator(`#targets-${l}`).isVisible(),
          ),
        )
      expect(await shown()).toEqual([false, false, false, false])
      await page.selectOption('#target_type', '1')
      expect(await shown()).toEqual([true, false, false, false])
      await page.selectOption('#target_type', '4')
      expect(await shown()).toEqual([false, false, false, true])
      expect(await page.locator('#state-targeting').textContent()).toBe('Rotation')
      await look(page, 'link-form-open', view)
      await expectNoCsp(page, violations)
    }
  }, 180_000)

  it('keeps a past expiry only once confirmed, in the browser', async () => {
    const { page, violations } = await open()
    await page.goto(`${origin}/dashboard/links/new`)
    await page.fill('#url', 'example.org/past')
    await page.click('#section-expiry summary')
    await page.fill('#expiration_date', '2020-01-01')
    await page.fill('#expiration_time', '10:00')
    await page.click('#save-link')
    await page.waitForSelector('#_past_expiry-1')
    expect(await page.locator('#expiration_date-error').textContent()).toMatch(
      /^This date and time have passed/,
    )
    expect(await page.inputValue('#url')).toBe('https://example.org/past')
    expect(await seriousAxe(page)).toEqual([])
    await page.check('#_past_expiry-1')
    await Promise.all([
      page.waitForURL(/\/dashboard\/links\/\d+\?created$/),
      page.click('#save-link'),
    ])
    expect(await page.locator('#state-expiry').textContent()).toBe('Expires 1 Jan 2020, 10:00')
    await expectNoCsp(page, violations)
  })

  it('answers the keyboard: / searches, n opens a new link, ? lists the shortcuts', async () => {
    const { page, violations } = await open()
    await page.goto(`${origin}/dashboard`)
    await page.locator('h1').click()
    await Promise.all([
      page.waitForURL(`${origin}/dashboard/links#search`),
      page.keyboard.press('/'),
    ])
    await expect.poll(() => page.evaluate('document.activeElement.id')).toBe('filter-search')
    await page.keyboard.type('n')
    expect(await page.inputValue('#filter-search')).toBe('n')
    await page.locator('h1').click()
    await page.keyboard.press('?')
    await page.waitForSelector('#shortcuts[open]')
    expect(await seriousAxe(page)).toEqual([])
    await keepScreenshot(page, 'first-run-shortcuts-desktop-light')
    await page.keyboard.press('Escape')
    await page.waitForSelector('#shortcuts:not([open])', { state: 'attached' })
    await Promise.all([page.waitForURL(`${origin}/dashboard/links/new`), page.keyboard.press('n')])
    expect(await page.evaluate('document.activeElement.id')).toBe('url')
    await expectNoCsp(page, violations)
  })

  it('switches the theme and remembers it; the system’s theme is the default', async () => {
    const { page, violations } = await open({ dark: true })
    await page.goto(`${origin}/dashboard/links`)
    const background = () => page.evaluate('getComputedStyle(document.body).backgroundColor')
    const button = page.locator('#theme-toggle')
    expect(await button.getAttribute('aria-label')).toBe('Theme: system')
    expect(await background()).toBe('rgb(17, 20, 24)')
    await button.click()
    expect(await button.getAttribute('aria-label')).toBe('Theme: light')
    expect(await background()).toBe('rgb(243, 244, 247)')
    expect(await seriousAxe(page)).toEqual([])
    await page.reload()
    expect(await page.locator('html').getAttribute('data-theme')).toBe('light')
    expect(await background()).toBe('rgb(243, 244, 247)')
    await keepScreenshot(page, 'first-run-links-forced-light')
    await button.click()
    expect(await button.getAttribute('aria-label')).toBe('Theme: dark')
    expect(await background()).toBe('rgb(17, 20, 24)')
    await button.click()
    expect(await button.getAttribute('aria-label')).toBe('Theme: system')
    expect(await page.locator('html').getAttribute('data-theme')).toBeNull()
    await expectNoCsp(page, violations)
    // Without JavaScript there is no button: the system's theme applies.
    const plain = await open({ javaScript: false })
    await plain.page.goto(`${origin}/dashboard/links`)
    expect(await plain.page.locator('#theme-toggle').isVisible()).toBe(false)
  })

  it('the bookmarklet opens the Shorten page with the page being read, ready for Enter', async () => {
    const { page, violations } = await open()
    await page.goto(`${origin}/dashboard/account`)
    const href = await page.locator('#bookmarklet-link').getAttribute('href')
    expect(href).toMatch(/^javascript:/)
    await look(page, 'account', { width: 1280, name: 'desktop-light' })
    // Pressed on another site: the code runs there.
    await page.goto(`${destination.origin}/article?id=7`)
    await Promise.all([
      page.waitForURL(/\/dashboard\/shorten\?url=/),
      page.evaluate(decodeURIComponent(href!.slice('javascript:'.length))),
    ])
    expect(await page.inputValue('#shorten-url')).toBe(`${destination.origin}/article?id=7`)
    expect(await page.evaluate('document.activeElement.id')).toBe('shorten-url')
    await page.press('#shorten-url', 'Enter')
    await page.waitForSelector('#shortened-url')
    expect(await page.locator('#shortened-destination').textContent()).toBe(
      `to ${destination.origin}/article?id=7`,
    )
    await look(page, 'shorten-page', { width: 1280, name: 'desktop-light' })
    await expectNoCsp(page, violations)
  })
})
