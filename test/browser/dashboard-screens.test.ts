/**
 * The Pixels, Spaces, Domains, Account and Admin screens in real Chromium: each page (lists,
 * forms, a form refused with its messages, confirmations, a new key) with no serious or
 * critical axe-core violation and no CSP violation, stored script payloads shown as text and
 * never run; a create and a delete with JavaScript off; screenshots at phone and desktop
 * width, light and dark, into test-artifacts/.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { chromiumCheck, keepScreenshot } from '../support/browser.js'
import {
  type Cookies,
  inEachView,
  openPage,
  seriousAxe,
  setFirstPassword,
  dashboardSuite,
} from '../support/dashboard-browser.js'

const chromium = chromiumCheck()

const PASSWORD = 'screens password 1'
/** Each payload, if it ever ran, would set `window.__xss`. */
const XSS = `<img src=x onerror="window.__xss=1">`
/** A valid URL (no spaces) that carries markup. */
const URL_XSS = 'https://example.com/?q=<script>window.__xss=2</script>'

describe.skipIf(!chromium.ok)('dashboard screens in Chromium', () => {
  const suite = dashboardSuite()
  let cookies: Cookies

  // These screens are checked for CSP refusals in the console only.
  const open = (options: { width?: number; dark?: boolean; javaScript?: boolean } = {}) =>
    openPage(suite.browser, {
      width: options.width,
      dark: options.dark,
      context: { javaScriptEnabled: options.javaScript ?? true },
      cookies,
      cspEvents: false,
    })

  beforeAll(async () => {
    // Stored payloads in every kind of row these screens show.
    expect(
      (
        await suite.s.api('POST', '/pixels', {
          name: XSS.slice(0, 32),
          type: 'facebook',
          value: '123',
        })
      ).status,
    ).toBe(201)
    expect(
      (
        await suite.s.api('POST', '/pixels', {
          name: 'Launch',
          type: 'google-analytics',
          value: 'G-1234',
        })
      ).status,
    ).toBe(201)
    expect(
      (await suite.s.api('POST', '/spaces', { name: XSS.slice(0, 32), color: 4 })).status,
    ).toBe(201)
    expect((await suite.s.api('POST', '/spaces', { name: 'Campaigns', color: 2 })).status).toBe(201)
    expect(
      (
        await suite.s.api('POST', '/domains', {
          name: 'go.example.com',
          index_page: URL_XSS,
        })
      ).status,
    ).toBe(201)
    const { page } = await open()
    await setFirstPassword(page, suite.passwordLink, PASSWORD)
    cookies = await page.context().cookies()
  })

  it('every screen: no axe or CSP violation, payloads shown as text and never run', async () => {
    const { page, violations } = await open()
    const check = async (path: string, heading: string) => {
      await page.goto(`${suite.origin}${path}`)
      expect(await page.locator('h1').textContent()).toBe(heading)
      expect(await seriousAxe(page), path).toEqual([])
      expect(await page.evaluate('window.__xss === undefined')).toBe(true)
    }
    await check('/dashboard/pixels', 'Pixels')
    expect(await page.locator('#items tbody tr').count()).toBe(2)
    expect(await page.locator('#items tbody strong').allTextContents()).toContain(XSS.slice(0, 32))
    await check('/dashboard/pixels?type=facebook&sort_by=name&sort=asc', 'Pixels')
    expect(await page.locator('#items tbody tr').count()).toBe(1)
    await check('/dashboard/pixels/new', 'New pixel')
    await check('/dashboard/pixels/1/edit', 'Edit pixel')
    await check('/dashboard/pixels/1/delete', 'Delete pixel')
    await check('/dashboard/spaces', 'Spaces')
    await check('/dashboard/spaces/new', 'New space')
    await check('/dashboard/domains', 'Domains')
    // Stored as the URL parser reads it: the brackets percent-encoded, shown as text.
    expect(await page.locator('#items').textContent()).toContain(new URL(URL_XSS).href)
    await check('/dashboard/domains/new', 'New domain')
    await check('/dashboard/account', 'Account')
    await check('/dashboard/admin', 'Admin')
    await check('/dashboard/admin/users/new', 'New user')
    await check('/dashboard/admin/domains', 'Global domains')

    // A refused form: every message beside its field, what was typed kept, focusable fields.
    await page.goto(`${suite.origin}/dashboard/pixels/new`)
    await page.fill('#name', 'x'.repeat(40))
    await page.fill('#value', 'not valid!')
    await Promise.all([
      page.waitForURL(`${suite.origin}/dashboard/pixels`),
      page.click('text=Create pixel'),
    ])
    expect(await page.locator('#name-error').textContent()).toBe(
      '“Name” is too long: at most 32 characters.',
    )
    expect(await page.locator('#value-error').textContent()).toBe(
      '“Pixel ID” may only contain letters, digits, - and _.',
    )
    expect(await page.inputValue('#value')).toBe('not valid!')
    expect(await seriousAxe(page)).toEqual([])

    // A new API key, shown once.
    await page.goto(`${suite.origin}/dashboard/account`)
    await page.fill('#key_name', XSS)
    await page.click('text=Create API key')
    await page.waitForSelector('#new-key')
    expect(await page.locator('#key-heading').textContent()).toBe(XSS)
    expect(await page.inputValue('#new-key')).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    expect(await seriousAxe(page)).toEqual([])
    await page.goto(`${suite.origin}/dashboard/account`)
    expect(await page.locator('#keys tbody tr').count()).toBe(2)
    expect(await page.evaluate('window.__xss === undefined')).toBe(true)
    expect(await page.evaluate('window.__violations ?? []')).toEqual([])
    expect(violations).toEqual([])
  }, 120_000)

  it('creates and deletes with JavaScript off (plain forms, 303s, a confirmation page)', async () => {
    const { page } = await open({ javaScript: false })
    await page.goto(`${suite.origin}/dashboard/spaces/new`)
    await page.fill('#name', 'No script space')
    await page.selectOption('#color', '5')
    await Promise.all([
      page.waitForURL(`${suite.origin}/dashboard/spaces?done=created`),
      page.click('text=Create space'),
    ])
    expect(await page.locator('#notice').textContent({ timeout: 3000 })).toBe('Space created.')
    const row = page.locator('#items tbody tr', { hasText: 'No script space' })
    expect(await row.locator('.swatch').textContent({ timeout: 3000 })).toBe('Purple')
    await row.locator('a', { hasText: 'Delete' }).click({ timeout: 3000 })
    expect(await page.locator('#delete-name').textContent({ timeout: 3000 })).toBe(
      'No script space',
    )
    await Promise.all([
      page.waitForURL(`${suite.origin}/dashboard/spaces?done=deleted`),
      page.click('button:has-text("Delete space")'),
    ])
    expect(await page.locator('#items').textContent()).not.toContain('No script space')
  })

  it('screenshots at phone and desktop width, light and dark, nothing wider than the screen', async () => {
    const screens: [string, string][] = [
      ['pixels', '/dashboard/pixels'],
      ['spaces', '/dashboard/spaces'],
      ['domains', '/dashboard/domains'],
      ['domain-form', '/dashboard/domains/new'],
      ['account', '/dashboard/account'],
      ['admin', '/dashboard/admin'],
    ]
    const { page, violations } = await open()
    for (const [screen, path] of screens) {
      await page.goto(`${suite.origin}${path}`)
      await inEachView(page, async ({ width, name }) => {
        expect(await seriousAxe(page), `${screen} ${name}`).toEqual([])
        await keepScreenshot(page, `dashboard-${screen}-${name}`, { fullPage: true })
        expect(
          await page.evaluate('document.documentElement.scrollWidth'),
          `${screen} ${name}`,
        ).toBeLessThanOrEqual(width)
      })
      expect(violations).toEqual([])
    }
  }, 180_000)
})
