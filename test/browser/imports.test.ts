/**
 * The Imports pages in real Chromium: a CSV file chosen in the form and sent as the browser
 * sends it (multipart), the import's page; an API import whose status block htmx refreshes
 * until it is done, without a reload; the links export downloaded through the session; no CSP
 * violation, no serious or critical axe-core violation, and screenshots at phone and desktop
 * width, light and dark, with nothing wider than the screen.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumCheck, keepScreenshot } from '../support/browser.js'
import {
  type Cookies,
  expectNoCsp,
  inEachView,
  openPage,
  seriousAxe,
  setFirstPassword,
  startDashboard,
  stopDashboard,
} from '../support/dashboard-browser.js'
import type { TestServer } from '../support/server.js'
import { gated, phpShortApi, sourceApi, type Gate, type SourceApi } from '../support/source-apis.js'

const chromium = chromiumCheck()
const PASSWORD = 'imports password 1'

describe.skipIf(!chromium.ok)('imports pages in Chromium', () => {
  let s: TestServer
  let browser: Browser
  let origin: string
  let passwordLink: string
  let api: SourceApi
  let gate: Gate
  let dir: string
  let cookies: Cookies

  beforeAll(async () => {
    // A phpShort API that holds its pages after the first until the test releases them: the
    // import is still running when its page is first shown.
    const links = Array.from({ length: 6 }, (_, i) => ({
      id: i + 1,
      alias: `api-${i + 1}`,
      url: `https://example.com/api/${i + 1}`,
      domain: { id: 1, name: 'short.test' },
      clicks: i,
      created_at: '2024-01-01T00:00:00.000000Z',
    }))
    const held = gated(phpShortApi('php-key', links, 1), 1)
    gate = held.gate
    api = await sourceApi(held.answer)
    ;({ s, browser, origin, passwordLink } = await startDashboard({
      IMPORT_ALLOWED_HOSTS: '127.0.0.1',
    }))
    dir = mkdtempSync(join(tmpdir(), 'slink-import-browser-'))
    const { page } = await open()
    await setFirstPassword(page, passwordLink, PASSWORD)
    cookies = await page.context().cookies()
  })
  afterAll(async () => {
    await stopDashboard(browser, s)
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  // Dialogs are left to the browser's default here; downloads are accepted for the export.
  const open = (options: { width?: number; dark?: boolean; signedIn?: boolean } = {}) =>
    openPage(browser, {
      width: options.width,
      dark: options.dark,
      context: { acceptDownloads: true },
      cookies: options.signedIn ? cookies : undefined,
      dialogs: false,
    })

  it('a file chosen in the form is imported; an API import refreshes itself until done; the export downloads', async () => {
    const { page, violations } = await open({ signedIn: true })
    await page.goto(`${origin}/dashboard/imports`)
    expect(await page.locator('h1').textContent()).toBe('Imports')
    expect(await seriousAxe(page)).toEqual([])

    // A file, as the browser sends it.
    const file = join(dir, 'links.csv')
    writeFileSync(file, 'url,alias,title\nhttps://example.com/a,file-a,A\nnot a url,file-b,\n')
    await page.selectOption('#source', 'csv')
    await page.setInputFiles('#file', file)
    await page.uncheck('#dry_run')
    await Promise.all([
      page.waitForURL(/\/dashboard\/imports\/\d+$/),
      page.click('#import-form button[type=submit]'),
    ])
    await page.waitForSelector('#import-status .status-done', { timeout: 15_000 })
    // The rows table is not part of the refreshed block: load the page again for it.
    await page.reload()
    expect(await page.locator('#import-status h2 .status').textContent()).toBe('Done')
    expect(await page.locator('#rows tbody tr').count()).toBe(2)
    expect(await page.locator('#row-2').textContent()).toContain('Invalid')

    // An API import: the status block is refreshed by htmx while it runs, no reload needed.
    await page.goto(`${origin}/dashboard/imports`)
    await page.selectOption('#source', 'phpshort')
    await page.fill('#url', api.url)
    await page.fill('#key', 'php-key')
    await page.uncheck('#dry_run')
    await Promise.all([
      page.waitForURL(/\/dashboard\/imports\/\d+$/),
      page.click('#import-form button[type=submit]'),
    ])
    const shownUrl = page.url()
    expect(await page.locator('#import-status').getAttribute('hx-trigger')).toBe('every 3s')
    // Shown while running: the source has answered its first page and holds the second.
    await gate.asked(2)
    gate.release()
    await page.waitForSelector('#import-status .status-done', { timeout: 30_000 })
    expect(page.url()).toBe(shownUrl)
    expect(await page.locator('#import-counts').textContent()).toContain('6 created')
    expect(await page.locator('#import-status').getAttribute('hx-trigger')).toBeNull()

    // The export, through the session.
    await page.goto(`${origin}/dashboard/imports`)
    await page.selectOption('#export-format', 'csv')
    await page.fill('#export-search', 'file-')
    await page.selectOption('#export-search-by', 'alias')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#export-form button[type=submit]'),
    ])
    const saved = join(dir, 'export.csv')
    await download.saveAs(saved)
    const lines = readFileSync(saved, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toMatch(/^https:\/\/example\.com\/a,file-a,A,/)

    await expectNoCsp(page, violations)
  }, 120_000)

  it('both pages: no axe violation, nothing wider than a phone, screenshots light and dark', async () => {
    const { page, violations } = await open({ signedIn: true })
    await page.goto(`${origin}/dashboard/imports`)
    await inEachView(page, async ({ width, name }) => {
      expect(await seriousAxe(page), name).toEqual([])
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width)
      await keepScreenshot(page, `imports-list-${name}`, { fullPage: true })
    })
    await page.click('#imports tbody tr:last-child a')
    await page.waitForSelector('#import-status')
    await inEachView(page, async ({ width, name }) => {
      expect(await seriousAxe(page), name).toEqual([])
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width)
      await keepScreenshot(page, `imports-one-${name}`, { fullPage: true })
    })
    await expectNoCsp(page, violations)
  }, 120_000)
})
