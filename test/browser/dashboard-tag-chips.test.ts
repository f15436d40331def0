/**
 * The tags field as chips in real Chromium against `slink serve`: names typed and ended with
 * Enter or a comma become chips, a suggestion of the user's tags is picked with the keyboard,
 * Escape closes the list, Backspace and the remove buttons take chips off, no duplicate gets in,
 * and the saved link has the chips' tags; without JavaScript the plain comma-separated field is
 * there instead. The bulk bar adds a tag to the ticked links. No CSP violation, no serious axe
 * finding; screenshots of the chip field with its suggestions open and of the bulk bar at phone
 * and desktop size, light and dark.
 */
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { chromiumCheck, keepScreenshot } from '../support/browser.js'
import {
  VIEWS,
  expectNoCsp,
  openPage,
  seriousAxe,
  setFirstPassword,
  type Cookies,
  showAs,
  dashboardSuite,
} from '../support/dashboard-browser.js'

const chromium = chromiumCheck()
const PASSWORD = 'dashboard password 3'

const chipNames = (page: Page) => page.locator('.chip span').allTextContents()

describe.skipIf(!chromium.ok)('the tags field as chips, in Chromium', () => {
  let cookies: Cookies
  let saved: number

  const suite = dashboardSuite()

  beforeAll(async () => {
    for (const [alias, tag] of [
      ['spring', 'Spring Sale'],
      ['summer', 'Summer'],
      ['news', 'Newsletter'],
    ] as const) {
      const res = await suite.s.api('POST', '/links', {
        url: `https://example.com/${alias}`,
        alias,
        'tags[]': tag,
      })
      expect(res.status).toBe(201)
    }
  })

  /** A signed-in page of `path` at one of the screenshot views (390×844 or 1280×800). */
  async function view(path: string, width: number, dark: boolean) {
    const opened = await openPage(suite.browser, {
      width,
      dark,
      cookies,
      context: { viewport: { width, height: width === 390 ? 844 : 800 } },
    })
    await opened.page.goto(`${suite.origin}${path}`)
    return opened
  }

  it('makes chips from typing and suggestions, takes them off, and saves their tags', async () => {
    const { page, violations, context } = await openPage(suite.browser)
    await setFirstPassword(page, suite.passwordLink, PASSWORD)
    cookies = await context.cookies()
    await page.goto(`${suite.origin}/dashboard/links/new`)
    await page.fill('#url', 'https://example.com/chips')
    await page.click('#section-organise summary')
    const entry = page.getByRole('combobox', { name: 'Tags' })
    await expect.poll(() => entry.isVisible()).toBe(true)
    expect(await page.locator('#tags').isHidden()).toBe(true)

    await entry.fill('alpha')
    await entry.press('Enter')
    await entry.pressSequentially('beta,gamma')
    expect(await entry.inputValue()).toBe('gamma')
    await entry.press('Enter')
    expect(await chipNames(page)).toEqual(['alpha', 'beta', 'gamma'])
    // No duplicate, whatever the case.
    await entry.fill('ALPHA')
    await entry.press('Enter')
    expect(await chipNames(page)).toEqual(['alpha', 'beta', 'gamma'])
    expect(await page.locator('#tags-status').textContent()).toBe('“ALPHA” is there already.')
    // Backspace in the empty input takes the last chip; a chip's button takes its own.
    await entry.press('Backspace')
    await page.getByRole('button', { name: 'Remove tag beta' }).click()
    expect(await chipNames(page)).toEqual(['alpha'])
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('tags-entry')

    // A suggestion picked with the keyboard: filtered ignoring case as one types.
    await entry.pressSequentially('SUM')
    const list = page.getByRole('listbox', { name: 'Your tags' })
    await expect.poll(() => list.isVisible()).toBe(true)
    expect(await list.getByRole('option').allTextContents()).toEqual(['Summer'])
    expect(await entry.getAttribute('aria-expanded')).toBe('true')
    await entry.press('ArrowDown')
    expect(await entry.getAttribute('aria-activedescendant')).toBe('tags-suggestion-0')
    expect(await list.getByRole('option', { selected: true }).textContent()).toBe('Summer')
    await entry.press('Enter')
    expect(await chipNames(page)).toEqual(['alpha', 'Summer'])
    expect(await list.isHidden()).toBe(true)
    // Escape closes the list and keeps what is typed; Enter then makes it a chip.
    await entry.pressSequentially('spring sale')
    await expect.poll(() => list.isVisible()).toBe(true)
    await entry.press('Escape')
    expect(await list.isHidden()).toBe(true)
    expect(await entry.getAttribute('aria-expanded')).toBe('false')
    expect(await entry.inputValue()).toBe('spring sale')
    await entry.press('Enter')
    // A known name takes the stored spelling.
    expect(await chipNames(page)).toEqual(['alpha', 'Summer', 'Spring Sale'])
    expect(await page.locator('#tags').inputValue()).toBe('alpha, Summer, Spring Sale')
    expect(await page.locator('#state-organise').textContent()).toBe(
      'No space · 3 tags · No pixels',
    )
    expect(await seriousAxe(page)).toEqual([])

    // What is still typed when the form is sent goes too.
    await entry.fill('last one')
    await Promise.all([
      page.waitForURL(/\/dashboard\/links\/\d+\?created$/),
      page.click('#save-link'),
    ])
    saved = Number(/\/links\/(\d+)\?/.exec(page.url())![1])
    const res = await suite.s.api('GET', `/links/${saved}`)
    expect((res.json as { data: { tags: string[] } }).data.tags).toEqual([
      'alpha',
      'last one',
      'Spring Sale',
      'Summer',
    ])
    await page.click('#section-organise summary')
    expect(await chipNames(page)).toEqual(['alpha', 'last one', 'Spring Sale', 'Summer'])
    await expectNoCsp(page, violations)
  }, 120_000)

  it('keeps a name too long typed, and shows the server’s message next to the chips', async () => {
    const { page, violations } = await view(`/dashboard/links/${saved}`, 1280, false)
    await page.click('#section-organise summary')
    const entry = page.getByRole('combobox', { name: 'Tags' })
    const long = 'x'.repeat(51)
    await entry.fill(long)
    await entry.press('Enter')
    expect(await page.locator('#tags-status').textContent()).toBe(
      'A tag name has at most 50 characters.',
    )
    expect(await entry.inputValue()).toBe(long)
    expect(await chipNames(page)).toEqual(['alpha', 'last one', 'Spring Sale', 'Summer'])
    // Sent as typed: the server checks it, answers 422 and the form comes back with the chips.
    await Promise.all([page.waitForLoadState('load'), page.click('#save-link')])
    await expect
      .poll(() => page.locator('#tags-error').textContent())
      .toBe('The tags.4 field must not be greater than 50 characters.')
    expect(await page.locator('#section-organise').getAttribute('open')).toBe('')
    expect(await chipNames(page)).toEqual(['alpha', 'last one', 'Spring Sale', 'Summer', long])
    expect(await entry.getAttribute('aria-invalid')).toBe('true')
    expect(await entry.getAttribute('aria-describedby')).toBe('tags-hint tags-error tags-status')
    await expectNoCsp(page, violations)
  }, 60_000)

  it('without JavaScript, the plain field names the tags, separated by commas', async () => {
    const { page } = await openPage(suite.browser, {
      cookies,
      context: { javaScriptEnabled: false },
    })
    await page.goto(`${suite.origin}/dashboard/links/${saved}`)
    await page.click('#section-organise summary')
    expect(await page.locator('#tags').inputValue()).toBe('alpha, last one, Spring Sale, Summer')
    expect(await page.locator('#tags').isVisible()).toBe(true)
    expect(await page.locator('#tags-entry').count()).toBe(0)
  })

  it('adds a tag to the ticked links from the bulk bar', async () => {
    const { page, violations } = await view('/dashboard/links', 1280, false)
    await page.check('input[aria-label="Select http://short.test/spring"]')
    await page.check('input[aria-label="Select http://short.test/summer"]')
    await page.click('#bulk-menu summary')
    await page.selectOption('#bulk-action', 'add_tag')
    await page.fill('#bulk-tag', 'Season')
    await Promise.all([page.waitForURL(/done=tagged-2$/), page.click('#bulk-apply')])
    expect(await page.locator('#links-notice').textContent()).toBe('The tag was added to 2 links.')
    for (const alias of ['spring', 'summer']) {
      const id = Number(
        await page
          .locator(`input[aria-label="Select http://short.test/${alias}"]`)
          .getAttribute('value'),
      )
      const res = await suite.s.api('GET', `/links/${id}`)
      expect((res.json as { data: { tags: string[] } }).data.tags).toContain('Season')
    }
    await expectNoCsp(page, violations)
  }, 60_000)

  it('looks right with the suggestions open and with the bulk bar open', async () => {
    const form = await openPage(suite.browser, { cookies })
    const links = await openPage(suite.browser, { cookies })
    for (const { width, dark, name } of VIEWS) {
      const height = width === 390 ? 844 : 800
      await showAs(form.page, { width, dark }, height)
      await form.page.goto(`${suite.origin}/dashboard/links/${saved}`)
      await form.page.click('#section-organise summary')
      const entry = form.page.getByRole('combobox', { name: 'Tags' })
      await entry.pressSequentially('s')
      await form.page.getByRole('listbox', { name: 'Your tags' }).waitFor()
      await entry.press('ArrowDown')
      await form.page.evaluate(() =>
        document.querySelector('.tag-field')?.scrollIntoView({ block: 'start' }),
      )
      expect(await seriousAxe(form.page)).toEqual([])
      expect(await form.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        width,
      )
      await keepScreenshot(form.page, `dashboard-tag-chips-${name}`)
      await expectNoCsp(form.page, form.violations)

      await showAs(links.page, { width, dark }, height)
      await links.page.goto(`${suite.origin}/dashboard/links`)
      await links.page.click('#bulk-menu summary')
      await links.page.selectOption('#bulk-action', 'add_tag')
      expect(await seriousAxe(links.page)).toEqual([])
      await keepScreenshot(links.page, `dashboard-bulk-tags-${name}`)
      await expectNoCsp(links.page, links.violations)
    }
  }, 180_000)
})
