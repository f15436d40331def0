/**
 * Rotation weights in the link form, in real Chromium against `slink serve`: the destination
 * URL's share under the rows follows the weights while they are typed, a row added with htmx
 * keeps it, the link is saved with its weights; no CSP violation; screenshots of the rotation
 * rows at phone and desktop width, light and dark.
 */
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

describe.skipIf(!chromium.ok)('rotation weights in the link form, in Chromium', () => {
  const suite = dashboardSuite()

  it('says the destination URL’s share live, keeps it through htmx rows, saves the weights', async () => {
    const { page, violations, context } = await openPage(suite.browser)
    await setFirstPassword(page, suite.passwordLink, PASSWORD)
    await page.goto(`${suite.origin}/dashboard/links/new`)
    await page.fill('#url', 'https://example.com/main')
    await page.click('#section-targeting summary')
    await page.selectOption('#target_type', '4')
    const share = page.locator('#rotation-share')
    expect(await share.textContent()).toBe(
      'Without weights, visitors take turns: the destination URL, then each row.',
    )
    await page.fill('#rotation-0-value', 'https://a.example.com/')
    await page.fill('#rotation-0-weight', '30')
    await expect
      .poll(() => share.textContent())
      .toBe('The destination URL gets the other 70 of every 100 visits.')
    await page.click('button[value="add_rotation"]')
    await page.locator('#rotation-1-value').waitFor()
    expect(await page.inputValue('#rotation-0-weight')).toBe('30')
    await page.fill('#rotation-1-value', 'https://b.example.com/')
    await page.fill('#rotation-1-weight', '80')
    await expect.poll(() => share.textContent()).toBe('The weights add up to 110, more than 100.')
    await page.fill('#rotation-1-weight', '45')
    await expect
      .poll(() => share.textContent())
      .toBe('The destination URL gets the other 25 of every 100 visits.')
    await Promise.all([
      page.waitForURL(/\/dashboard\/links\/\d+\?created$/),
      page.click('#save-link'),
    ])
    const id = Number(/\/links\/(\d+)\?/.exec(page.url())![1])
    const res = await suite.s.api('GET', `/links/${id}`)
    expect((res.json as { data: { rotation_target: unknown } }).data.rotation_target).toEqual([
      { value: 'https://a.example.com/', weight: 30 },
      { value: 'https://b.example.com/', weight: 45 },
    ])
    await expectNoCsp(page, violations)

    const cookies = await context.cookies()
    const other = await openPage(suite.browser, { cookies })
    for (const { width, dark, name } of VIEWS) {
      await showAs(other.page, { width, dark })
      await other.page.goto(`${suite.origin}/dashboard/links/${id}`)
      await other.page.click('#section-targeting summary')
      expect(await seriousAxe(other.page)).toEqual([])
      expect(await other.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        width,
      )
      await keepScreenshot(
        other.page.locator('#targets-rotation'),
        `dashboard-rotation-weights-${name}`,
      )
      await expectNoCsp(other.page, other.violations)
    }
  }, 180_000)
})
