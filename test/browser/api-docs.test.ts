/**
 * The API docs page (Swagger UI, served by the service) in real Chromium: it draws the
 * operations and logs no Content-Security-Policy violation.
 */
import { describe, expect, it } from 'vitest'
import { chromiumCheck } from '../support/browser.js'
import { expectNoCsp, openPage, dashboardSuite } from '../support/dashboard-browser.js'

const chromium = chromiumCheck()

describe.skipIf(!chromium.ok)('the API docs page in Chromium', () => {
  const suite = dashboardSuite()

  it('draws the operations with no CSP violation', async () => {
    const { page, violations } = await openPage(suite.browser)
    await page.goto(`${suite.origin}/api/docs/`)
    await page.locator('.opblock').first().waitFor()
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20)
    await page.waitForLoadState('networkidle')
    await expectNoCsp(page, violations)
  })
})
