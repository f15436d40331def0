/**
 * The link form's rules editor in real Chromium against `slink serve`: rules added, moved and
 * removed with htmx swap the rules section alone (the page is not loaded again), the link is
 * saved with its rules in order; no CSP violation, no serious axe finding; screenshots of the
 * section at phone and desktop width, light and dark.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { chromiumCheck, keepScreenshot } from '../support/browser.js'
import {
  VIEWS,
  dashboardSuite,
  expectNoCsp,
  openPage,
  seriousAxe,
  setFirstPassword,
  showAs,
} from '../support/dashboard-browser.js'

const chromium = chromiumCheck()
const PASSWORD = 'dashboard password 2'

const field = (page: Page, name: string) => page.locator(`[name="${name}"]`)

describe.skipIf(!chromium.ok)('the rules editor in the link form, in Chromium', () => {
  const suite = dashboardSuite()

  it('adds, moves and removes rules in place with htmx, and saves them in order', async () => {
    const { page, violations, context } = await openPage(suite.browser)
    await setFirstPassword(page, suite.passwordLink, PASSWORD)
    await page.goto(`${suite.origin}/dashboard/links/new`)
    // A mark on the page: a full load would lose it, an htmx swap keeps it.
    await page.evaluate('window.__samePage = true')
    await page.fill('#url', 'https://example.com/main')
    await page.click('#section-rules summary')
    await field(page, 'rules[0][conditions][0][type]').selectOption('country')
    await field(page, 'rules[0][conditions][0][value]').fill('FR')
    await field(page, 'rules[0][url]').fill('https://example.fr/')
    await page.click('button[name="_rules_action"][value="add"]')
    await field(page, 'rules[1][url]').waitFor()
    expect(await field(page, 'rules[0][url]').inputValue()).toBe('https://example.fr/')
    await field(page, 'rules[1][conditions][0][type]').selectOption('device')
    await field(page, 'rules[1][conditions][0][value]').fill('mobile')
    await field(page, 'rules[1][url]').fill('https://m.example.com/')
    await page.click('button[name="_rules_action"][value="up_1"]')
    await expect
      .poll(() => field(page, 'rules[0][url]').inputValue())
      .toBe('https://m.example.com/')
    expect(await field(page, 'rules[1][url]').inputValue()).toBe('https://example.fr/')
    await page.click('button[name="_rules_action"][value="add"]')
    await field(page, 'rules[2][url]').waitFor()
    await page.click('button[name="_rules_action"][value="remove_2"]')
    await expect.poll(() => field(page, 'rules[2][url]').count()).toBe(0)
    expect(await page.evaluate('window.__samePage === true')).toBe(true)
    await Promise.all([
      page.waitForURL(/\/dashboard\/links\/\d+\?created$/),
      page.click('#save-link'),
    ])
    const id = Number(/\/links\/(\d+)\?/.exec(page.url())![1])
    const res = await suite.s.api('GET', `/links/${id}`)
    expect((res.json as { data: { rules: unknown } }).data.rules).toEqual([
      { conditions: [{ type: 'device', value: 'mobile' }], url: 'https://m.example.com/' },
      { conditions: [{ type: 'country', value: 'FR' }], url: 'https://example.fr/' },
    ])
    await expectNoCsp(page, violations)

    const cookies = await context.cookies()
    const other = await openPage(suite.browser, { cookies })
    for (const { width, dark, name } of VIEWS) {
      await showAs(other.page, { width, dark })
      await other.page.goto(`${suite.origin}/dashboard/links/${id}`)
      await other.page.click('#section-rules summary')
      expect(await seriousAxe(other.page)).toEqual([])
      expect(await other.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        width,
      )
      await keepScreenshot(other.page.locator('#rules'), `dashboard-link-rules-${name}`)
      await expectNoCsp(other.page, other.violations)
    }
  }, 180_000)
})
