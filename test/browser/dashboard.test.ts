/**
 * The dashboard in real Chromium: the first user's one-time link from `slink serve`, setting a
 * password, signing out and in from the keyboard, the Overview with its chart, no CSP violation,
 * htmx loaded with eval off, no serious or critical axe-core violation, stored script payloads
 * shown as text and never run, and screenshots at phone and desktop width, light and dark.
 */
import SQLite from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { chromiumCheck, keepScreenshot } from '../support/browser.js'
import {
  dashboardSuite,
  expectNoCsp,
  fillPasswordForm,
  inEachView,
  openPage,
  seriousAxe,
} from '../support/dashboard-browser.js'
import { BROWSER_UA, eventually } from '../support/server.js'

const chromium = chromiumCheck()

const PASSWORD = 'dashboard password 1'
/** Each payload, if it ever ran, would set `window.__xss`. */
const PAYLOADS = {
  title: `<script>window.__xss='title'</script><img src=x onerror="window.__xss='title-img'">`,
  space: `<img src=x onerror=__xss=1>`,
  name: `<svg onload="window.__xss='name'"></svg>"'&`,
}

describe.skipIf(!chromium.ok)('dashboard in Chromium', () => {
  const suite = dashboardSuite()

  const open = (options: { width?: number; dark?: boolean } = {}) =>
    openPage(suite.browser, { ...options })

  it('first user: one-time link → password → overview; sign out and in by keyboard; nothing stored runs', async () => {
    // Stored values with script payloads, in every field the overview shows.
    const space = await suite.s.api('POST', '/spaces', { name: PAYLOADS.space, color: 2 })
    expect(space.status).toBe(201)
    const spaceId = (space.json as { data: { id: number } }).data.id
    const link = await suite.s.api('POST', '/links', {
      url: 'https://example.com/landing',
      domain_id: 1,
      alias: 'first',
      title: PAYLOADS.title,
      space_id: spaceId,
    })
    expect(link.status).toBe(201)
    await suite.s.api('POST', '/links', {
      url: 'https://example.com/two',
      domain_id: 1,
      alias: 'two',
    })
    const db = new SQLite(suite.s.dbPath)
    db.prepare('UPDATE users SET name = ? WHERE id = 1').run(PAYLOADS.name)
    db.close()
    // A click, so the chart has a bar.
    const visit = await suite.s.send('/first', { headers: { 'user-agent': BROWSER_UA } })
    expect(visit.status).toBe(302)
    await eventually(
      async () =>
        ((await suite.s.api('GET', '/links/1')).json as { data: { clicks: number } }).data,
      (d) => d.clicks === 1,
      5000,
    )

    const { page, violations } = await open()
    await page.goto(suite.passwordLink)
    expect(await page.locator('h1').textContent()).toBe('Set your password')
    await fillPasswordForm(page, suite.origin, PASSWORD)
    expect(await page.locator('h1').textContent()).toBe('Overview')

    // Sign out, then in again with the keyboard only.
    await Promise.all([
      page.waitForURL(`${suite.origin}/login?signed-out`),
      page.click('text=Sign out'),
    ])
    // The form puts the cursor in the email field by itself (autofocus); type once it has.
    await page.waitForFunction(() => document.activeElement?.id === 'email')
    await page.keyboard.type('admin@localhost')
    await page.keyboard.press('Tab')
    await page.keyboard.type(PASSWORD)
    await Promise.all([page.waitForURL(`${suite.origin}/dashboard`), page.keyboard.press('Enter')])

    expect(await page.locator('#total-links strong').textContent()).toBe('2')
    expect(await page.locator('#total-clicks strong').textContent()).toBe('1')
    expect(await page.locator('#total-spaces strong').textContent()).toBe('1')
    expect(await page.locator('#chart-overview rect.bar').count()).toBe(30)
    expect(await page.locator('#clicks-30-days').textContent()).toMatch(/^1 click from /)
    // The payloads are shown as text, and none ran.
    expect(await page.locator('#top-links .link-title').textContent()).toBe(PAYLOADS.title)
    expect(await page.locator('#top-links .space-name').textContent()).toBe(PAYLOADS.space)
    expect(await page.locator('#viewer-name').textContent()).toBe(PAYLOADS.name)
    expect(await page.evaluate('window.__xss === undefined')).toBe(true)
    expect(await page.locator('#top-links img, #top-links script, .who svg').count()).toBe(0)

    // htmx, served by the service, runs under the nonce CSP with eval off.
    expect(await page.evaluate('typeof window.htmx')).toBe('object')
    expect(await page.evaluate('window.htmx.config.allowEval')).toBe(false)
    expect(await page.evaluate('window.htmx.config.includeIndicatorStyles')).toBe(false)
    await expectNoCsp(page, violations)
    expect(await seriousAxe(page)).toEqual([])

    // Keyboard: the first Tab reaches the skip link, which moves focus to the content.
    await page.keyboard.press('Tab')
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content')
    await page.keyboard.press('Enter')
    expect(await page.evaluate('document.activeElement.id')).toBe('content')

    // Account and admin pages: no violation either.
    for (const path of ['/dashboard/account', '/dashboard/admin']) {
      await page.goto(`${suite.origin}${path}`)
      expect(await seriousAxe(page)).toEqual([])
      expect(await page.evaluate('window.__xss === undefined')).toBe(true)
    }
    await expectNoCsp(page, violations)

    // Screenshots of sign-in and the overview: phone and desktop, light and dark.
    const cookies = await page.context().cookies()
    const anonymous = await open()
    const signed = await open()
    await signed.context.addCookies(cookies)
    await anonymous.page.goto(`${suite.origin}/login`)
    await inEachView(anonymous.page, async ({ name }) => {
      expect(await seriousAxe(anonymous.page), name).toEqual([])
      await keepScreenshot(anonymous.page, `dashboard-login-${name}`)
    })
    await signed.page.goto(`${suite.origin}/dashboard`)
    expect(await signed.page.locator('h1').textContent()).toBe('Overview')
    await inEachView(signed.page, async ({ width, name }) => {
      expect(await seriousAxe(signed.page), name).toEqual([])
      await keepScreenshot(signed.page, `dashboard-overview-${name}`, { fullPage: true })
      // Nothing wider than the screen at phone width.
      expect(
        await signed.page.evaluate('document.documentElement.scrollWidth'),
        name,
      ).toBeLessThanOrEqual(width)
    })
    await signed.page.goto(`${suite.origin}/dashboard/links?sort_by=clicks`)
    expect(await signed.page.locator('#links tbody tr').count()).toBe(2)
    expect(await signed.page.locator('#links .link-title').first().textContent()).toBe(
      PAYLOADS.title,
    )
    await inEachView(signed.page, async ({ width, name }) => {
      expect(await seriousAxe(signed.page), name).toEqual([])
      await keepScreenshot(signed.page, `dashboard-links-${name}`, { fullPage: true })
      expect(
        await signed.page.evaluate('document.documentElement.scrollWidth'),
        name,
      ).toBeLessThanOrEqual(width)
    })
    expect(await signed.page.evaluate('window.__xss === undefined')).toBe(true)
    await expectNoCsp(signed.page, signed.violations)
  }, 120_000)

  it('the home page of the default domain leads to sign-in', async () => {
    const { page } = await open()
    await page.goto(`${suite.origin}/`)
    expect(await page.locator('h1').textContent()).toBe('slink')
    await Promise.all([page.waitForURL(`${suite.origin}/login`), page.click('text=Sign in')])
    expect(await page.locator('h1').textContent()).toBe('Sign in')
  })
})
