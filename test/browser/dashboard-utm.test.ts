/**
 * The link form's UTM section in real Chromium, against `slink serve`: typing a field rewrites
 * the destination URL at once, typing the URL fills the fields, choosing a template fills both,
 * and the link is saved with the URL shown. No CSP violation, no serious axe-core violation;
 * screenshots of the open section at phone and desktop width, light and dark.
 */
import { describe, expect, it } from 'vitest'
import { chromiumCheck, keepScreenshot } from '../support/browser.js'
import {
  dashboardSuite,
  expectNoCsp,
  inEachView,
  openPage,
  seriousAxe,
  setFirstPassword,
} from '../support/dashboard-browser.js'

const chromium = chromiumCheck()
const PASSWORD = 'dashboard password utm'

describe.skipIf(!chromium.ok)('the link form’s UTM section in Chromium', () => {
  const suite = dashboardSuite()

  it('keeps the URL and the fields in step, applies a template, saves the link', async () => {
    const made = await suite.s.api('POST', '/utm-templates', {
      name: 'Newsletter',
      utm_source: 'newsletter',
      utm_medium: 'email',
    })
    expect(made.status).toBe(201)

    const { page, violations } = await openPage(suite.browser)
    await setFirstPassword(page, suite.passwordLink, PASSWORD)
    await page.goto(`${suite.origin}/dashboard/links/new`)
    await page.click('#section-utm summary')

    await page.fill('#url', 'https://example.org/p?a=1&utm_source=old#top')
    expect(await page.inputValue('#utm_source')).toBe('old')
    await page.fill('#utm_source', 'spring news')
    expect(await page.inputValue('#url')).toBe(
      'https://example.org/p?a=1&utm_source=spring%20news#top',
    )
    await page.fill('#utm_campaign', 'sale')
    expect(await page.inputValue('#url')).toBe(
      'https://example.org/p?a=1&utm_source=spring%20news&utm_campaign=sale#top',
    )
    await page.fill('#utm_source', '')
    expect(await page.inputValue('#url')).toBe('https://example.org/p?a=1&utm_campaign=sale#top')

    // Choosing a template fills the five fields (clearing the ones it leaves out) and the URL.
    await page.selectOption('#utm-template', { label: 'Newsletter' })
    expect(await page.inputValue('#utm_medium')).toBe('email')
    expect(await page.inputValue('#utm_campaign')).toBe('')
    expect(await page.inputValue('#url')).toBe(
      'https://example.org/p?a=1&utm_source=newsletter&utm_medium=email#top',
    )

    await page.fill('#alias', 'utm-browser')
    await Promise.all([
      page.waitForURL(/\/dashboard\/links\/\d+\?created$/),
      page.click('#save-link'),
    ])
    const id = Number(/links\/(\d+)\?/.exec(page.url())![1])
    const link = await suite.s.api('GET', `/links/${id}`)
    expect((link.json as { data: { url: string } }).data.url).toBe(
      'https://example.org/p?a=1&utm_source=newsletter&utm_medium=email#top',
    )
    await expectNoCsp(page, violations)

    const cookies = await page.context().cookies()
    const other = await openPage(suite.browser, { cookies })
    await other.page.goto(`${suite.origin}/dashboard/links/${id}`)
    await other.page.click('#section-utm summary')
    await inEachView(other.page, async ({ width, name }) => {
      expect(await seriousAxe(other.page), name).toEqual([])
      expect(await other.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        width,
      )
      await keepScreenshot(other.page.locator('#section-utm'), `dashboard-utm-${name}`)
    })
    await other.page.goto(`${suite.origin}/dashboard/utm-templates`)
    await inEachView(other.page, async ({ name }) => {
      expect(await seriousAxe(other.page), name).toEqual([])
      await keepScreenshot(other.page, `dashboard-utm-templates-${name}`, { fullPage: true })
    })
    await expectNoCsp(other.page, other.violations)
  }, 180_000)
})
