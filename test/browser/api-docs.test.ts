/**
 * The API docs page (Swagger UI, served by the service) in real Chromium: it draws the
 * operations and logs no Content-Security-Policy violation.
 */
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumCheck } from '../support/browser.js'
import {
  expectNoCsp,
  openPage,
  startDashboard,
  stopDashboard,
} from '../support/dashboard-browser.js'
import type { TestServer } from '../support/server.js'

const chromium = chromiumCheck()

describe.skipIf(!chromium.ok)('the API docs page in Chromium', () => {
  let s: TestServer
  let browser: Browser
  let origin: string
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    ;({ s, browser, origin } = await startDashboard())
  })
  afterAll(async () => {
    await stopDashboard(contexts, browser, s)
  })

  it('draws the operations with no CSP violation', async () => {
    const { page, violations } = await openPage(browser, { track: contexts })
    await page.goto(`${origin}/api/docs/`)
    await page.locator('.opblock').first().waitFor()
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20)
    await page.waitForLoadState('networkidle')
    await expectNoCsp(page, violations)
  })
})
