/**
 * The link forms and the list's actions in real Chromium, against `slink serve`: a link made
 * through the form with a password, a country picked by name (a row added with htmx) and a
 * pixel; a refused form showing the API's message with everything kept; the link edited; then
 * bulk-deleted with two others through the select-all box and the confirmation page. No CSP
 * violation, no serious or critical axe-core violation, stored script payloads never run, and
 * screenshots of the forms at phone and desktop width, light and dark. At both widths the links
 * list's selects stay inside their panels.
 */
import type { Page } from 'playwright-core'
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

const PASSWORD = 'dashboard password 2'
/** If it ever ran, it would set `window.__xss`. */
const PAYLOAD = `"><script>window.__xss='title'</script><img src=x onerror="window.__xss='img'">`

interface Link {
  id: number
  alias: string
  url: string
  password: boolean
  country_target: { key: string; value: string }[] | null
  target_type: number
  pixels: { id: number }[]
  title: string | null
}

describe.skipIf(!chromium.ok)('dashboard link forms in Chromium', () => {
  const suite = dashboardSuite()

  const open = (options: { width?: number; dark?: boolean } = {}) =>
    openPage(suite.browser, { ...options })

  async function clean(page: Page, violations: string[]): Promise<void> {
    expect(await page.evaluate('window.__xss === undefined')).toBe(true)
    await expectNoCsp(page, violations)
  }

  async function link(id: number): Promise<Link> {
    const res = await suite.s.api('GET', `/links/${id}`)
    expect(res.status).toBe(200)
    return (res.json as { data: Link }).data
  }

  it('create with password, country and pixel; refused form; edit; bulk delete with two others', async () => {
    const pixel = await suite.s.api('POST', '/pixels', {
      name: 'Meta',
      type: 'facebook',
      value: '42',
    })
    expect(pixel.status).toBe(201)
    const pixelId = (pixel.json as { data: { id: number } }).data.id

    const { page, violations } = await open()
    await setFirstPassword(page, suite.passwordLink, PASSWORD)

    await page.goto(`${suite.origin}/dashboard/links`)
    await Promise.all([
      page.waitForURL(`${suite.origin}/dashboard/links/new`),
      page.click('#new-link'),
    ])
    expect(await page.locator('h1').textContent()).toBe('New link')
    expect(await seriousAxe(page)).toEqual([])

    await page.fill('#url', 'https://example.com/from-the-form')
    await page.fill('#alias', 'from-form')
    await page.fill('#title', PAYLOAD)
    // The optional parts are closed sections: opened by their summaries.
    await page.click('#section-access summary')
    await page.fill('#password', 'visitor secret')
    await page.click('#section-organise summary')
    await page.check('label:has-text("Meta (facebook)")')
    await page.click('#section-targeting summary')
    await page.selectOption('#target_type', { label: 'Country' })
    await page.selectOption('#country-0-key', { label: 'Germany (DE)' })
    await page.fill('#country-0-value', 'https://example.de/')
    // A second row, added in place by htmx: the rest of the form is untouched.
    await page.click('button[value="add_country"]')
    await page.locator('#country-1-key').waitFor()
    // htmx moves the focus when the swap settles, a moment after the row is in the page.
    await page.waitForFunction(() => document.activeElement?.id === 'country-1-key')
    expect(await page.inputValue('#url')).toBe('https://example.com/from-the-form')
    expect(await page.inputValue('#password')).toBe('visitor secret')
    await page.selectOption('#country-1-key', { label: 'France (FR)' })
    // Not a URL: the API's message, next to the field, with everything kept.
    await page.fill('#country-1-value', 'javascript:alert(1)')
    await Promise.all([page.waitForLoadState('load'), page.click('#save-link')])
    await page.locator('#country-1-value-error').waitFor()
    expect(await page.locator('#country-1-value-error').textContent()).toBe(
      'The “Destination” of country 2 must be a web address, such as https://example.org/page.',
    )
    expect(await page.locator('#country-1-value').getAttribute('aria-invalid')).toBe('true')
    expect(await page.inputValue('#title')).toBe(PAYLOAD)
    expect(await page.inputValue('#password')).toBe('visitor secret')
    expect(await page.inputValue('#country-0-key')).toBe('DE')
    expect(await page.isChecked('label:has-text("Meta (facebook)")')).toBe(true)
    expect(await seriousAxe(page)).toEqual([])
    await clean(page, violations)

    // Removing the bad row (with htmx) and saving creates the link.
    await page.click('button[value="remove_country_1"]')
    await page.locator('#country-1-key').waitFor({ state: 'detached' })
    await Promise.all([
      page.waitForURL(/\/dashboard\/links\/\d+\?created$/),
      page.click('#save-link'),
    ])
    expect(await page.locator('#notice-short-url').textContent()).toBe(
      'http://short.test/from-form',
    )
    const id = Number(/links\/(\d+)\?/.exec(page.url())![1])
    expect(await link(id)).toMatchObject({
      alias: 'from-form',
      url: 'https://example.com/from-the-form',
      title: PAYLOAD,
      password: true,
      target_type: 1,
      country_target: [{ key: 'DE', value: 'https://example.de/' }],
      pixels: [{ id: pixelId }],
    })
    await clean(page, violations)

    // Edit: a new destination; the password stays (its field is left empty).
    expect(await page.inputValue('#password')).toBe('')
    await page.fill('#url', 'https://example.com/edited')
    await Promise.all([page.waitForURL(/\?saved$/), page.click('#save-link')])
    expect(await page.locator('#link-notice').textContent()).toContain('The changes were saved:')
    expect(await link(id)).toMatchObject({ url: 'https://example.com/edited', password: true })
    expect(await seriousAxe(page)).toEqual([])

    // A short space name and a long one: the selects that list the spaces (in the bar's
    // menus, opened) stay inside their panels at every width.
    for (const name of ['Launch', 'Quarterly-Campaign-Summer2026xx']) {
      expect((await suite.s.api('POST', '/spaces', { name, color: 1 })).status).toBe(201)
    }
    const launch = (
      (await suite.s.api('GET', '/spaces?search=Launch')).json as { data: { id: number }[] }
    ).data[0]!.id
    const spaced = await suite.s.api('POST', '/links', {
      url: 'https://example.com/a/long/destination/path/that/goes/on?utm_source=newsletter',
      alias: 'in-launch',
      space_id: launch,
    })
    expect(spaced.status).toBe(201)

    // Screenshots of the edit and new forms, phone and desktop, light and dark.
    const cookies = await page.context().cookies()
    const other = await open()
    await other.context.addCookies(cookies)
    for (const [path, shot] of [
      [`/dashboard/links/${id}`, 'edit'],
      ['/dashboard/links/new', 'new'],
    ] as const) {
      await other.page.goto(`${suite.origin}${path}`)
      await inEachView(other.page, async ({ width, name }) => {
        expect(await seriousAxe(other.page), `${shot} ${name}`).toEqual([])
        expect(
          await other.page.evaluate('document.documentElement.scrollWidth'),
          `${shot} ${name}`,
        ).toBeLessThanOrEqual(width)
        await keepScreenshot(other.page, `dashboard-link-${shot}-${name}`, { fullPage: true })
      })
    }
    await other.page.goto(`${suite.origin}/dashboard/links`)
    await inEachView(other.page, async ({ name }) => {
      expect(await seriousAxe(other.page), name).toEqual([])
      expect(
        await other.page.evaluate(() => {
          document.querySelectorAll('details').forEach((d) => (d.open = true))
          const selects = Array.from(document.querySelectorAll('.panel select'))
          const spilling = selects.filter((select) => {
            const panel = select.closest('.panel')!
            const inner =
              panel.getBoundingClientRect().right - parseFloat(getComputedStyle(panel).paddingRight)
            return select.getBoundingClientRect().right > inner + 1
          })
          document.querySelectorAll('details').forEach((d) => (d.open = false))
          return { selects: selects.length > 0, spilling: spilling.length }
        }),
        name,
      ).toEqual({ selects: true, spilling: 0 })
      await keepScreenshot(other.page, `dashboard-link-list-actions-${name}`, { fullPage: true })
      await clean(other.page, other.violations)
    })

    const spacedId = (spaced.json as { data: { id: number } }).data.id
    expect((await suite.s.api('DELETE', `/links/${spacedId}`)).status).toBe(200)

    // Bulk delete: the new link and two others, all ticked with "select all", after confirming.
    for (const alias of ['other-1', 'other-2']) {
      const res = await suite.s.api('POST', '/links', { url: 'https://example.com/o', alias })
      expect(res.status).toBe(201)
    }
    await page.goto(`${suite.origin}/dashboard/links`)
    expect(await page.locator('#links tbody tr').count()).toBe(3)
    expect(await page.locator('#links .link-title').first().textContent()).toBe(PAYLOAD)
    // The dashboard script shows what only it can do: copy buttons (here through the fallback,
    // http://short.test is no secure context) and the select-all box.
    expect(await page.locator('#links button[data-copy]').first().isVisible()).toBe(true)
    await page.click('#links button[data-copy] >> nth=0')
    await page.waitForFunction(() =>
      /^Copied$/.test(document.querySelector('#links button[data-copy]')!.textContent!),
    )
    await page.check('#select-all')
    expect(await page.locator('input[name="ids[]"]:checked').count()).toBe(3)
    // The actions on the selection are behind "With selected", one line until opened.
    await page.click('#bulk-menu summary')
    await page.selectOption('#bulk-action', 'delete')
    await Promise.all([
      page.waitForURL(`${suite.origin}/dashboard/links/bulk`),
      page.click('#bulk-apply'),
    ])
    expect(await page.locator('h1').textContent()).toBe('Delete 3 links?')
    expect(await seriousAxe(page)).toEqual([])
    await Promise.all([
      page.waitForURL(`${suite.origin}/dashboard/links?page=1&done=deleted-3`),
      page.click('#confirm-delete'),
    ])
    expect(await page.locator('#links-notice').textContent()).toBe('3 links were deleted.')
    expect(await page.locator('#links-count').textContent()).toMatch(/^You have no links yet/)
    const left = await suite.s.api('GET', '/links')
    expect((left.json as { data: unknown[] }).data).toEqual([])
    await clean(page, violations)
  }, 180_000)
})
