/**
 * A tag's statistics and the Overview filtered by a tag in real Chromium, with clicks made
 * through the server's redirects: the numbers are the tag's links' together, the tag choice
 * works without JavaScript, no CSP violation, no serious or critical axe-core violation,
 * nothing wider than a phone. Screenshots at 390×844 and 1280×800, light and dark, go to
 * test-artifacts/.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { chromiumCheck, keepScreenshot } from '../support/browser.js'
import {
  VIEWS,
  type Cookies,
  expectNoCsp,
  openPage,
  seriousAxe,
  setFirstPassword,
  showAs,
  dashboardSuite,
} from '../support/dashboard-browser.js'
import { API_KEY, BROWSER_UA, eventually } from '../support/server.js'

const chromium = chromiumCheck()
const PASSWORD = 'tag stats password 1'
/** The screenshots' sizes: a phone and a laptop. */
const HEIGHTS: Record<number, number> = { 390: 844, 1280: 800 }

describe.skipIf(!chromium.ok)('a tag’s statistics and the Overview by tag in Chromium', () => {
  let cookies: Cookies
  let tagId: number

  const suite = dashboardSuite()

  beforeAll(async () => {
    const made: [string, string][] = [
      ['spring-a', 'tags[]=Spring'],
      ['spring-b', 'tags[]=spring&tags[]=Sale'],
      ['plain', ''],
    ]
    for (const [alias, tags] of made) {
      const body = `url=https%3A%2F%2Fexample.com%2F${alias}&domain_id=1&alias=${alias}&${tags}`
      const res = await suite.s.send('/api/v1/links', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${API_KEY}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body,
      })
      expect(res.status).toBe(201)
    }
    const visits: [string, number, string | null][] = [
      ['spring-a', 6, 'https://news.example.org/today'],
      ['spring-b', 3, 'https://mail.example.net/'],
      ['spring-b', 2, null],
      ['plain', 4, null],
    ]
    for (const [alias, times, referer] of visits) {
      for (let i = 0; i < times; i++) {
        const res = await suite.s.send(`/${alias}`, {
          headers: { 'user-agent': BROWSER_UA, ...(referer ? { referer } : {}) },
        })
        expect(res.status).toBe(302)
      }
    }
    const tags = (await suite.s.api('GET', '/tags?search=Spring')).json as {
      data: { id: number; name: string }[]
    }
    tagId = tags.data.find((t) => t.name === 'Spring')!.id
    const counted = await eventually(
      async () =>
        (
          (await suite.s.api('GET', `/tags/${tagId}/stats?name=clicks`)).json as {
            data: { count: number }[]
          }
        ).data.reduce((sum, row) => sum + row.count, 0),
      (n) => n === 11,
    )
    expect(counted).toBe(11)
    const { page } = await open()
    await setFirstPassword(page, suite.passwordLink, PASSWORD)
    cookies = await page.context().cookies()
  }, 60_000)

  const open = (options: { width?: number; dark?: boolean } = {}) =>
    openPage(suite.browser, {
      ...options,
      cookies,
      context: {
        viewport: { width: options.width ?? 1280, height: HEIGHTS[options.width ?? 1280]! },
      },
    })

  it('shows the tag’s statistics and the Overview by tag; axe; screenshots', async () => {
    const { page, violations } = await open()
    for (const { width, dark, name } of VIEWS) {
      await showAs(page, { width, dark }, HEIGHTS[width])
      await page.goto(`${suite.origin}/dashboard/tags/${tagId}/stats`)
      expect(await page.locator('h1').textContent()).toBe('Tag “Spring”: 2 links')
      expect(await page.locator('#total-clicks strong').textContent()).toBe('11')
      expect(await page.locator('#top-referrer td', { hasText: 'news.example.org' }).count()).toBe(
        1,
      )
      expect(await page.locator('#tag-links').getAttribute('href')).toBe(
        '/dashboard/links?tag=Spring',
      )
      await expectNoCsp(page, violations)
      expect(await seriousAxe(page)).toEqual([])
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width)
      await keepScreenshot(page, `dashboard-tag-stats-${name}`, { fullPage: true })

      await page.goto(`${suite.origin}/dashboard?tag=Spring`)
      expect(await page.locator('#total-links strong').textContent()).toBe('2')
      expect(await page.locator('#total-clicks strong').textContent()).toBe('11')
      expect(await page.locator('#filter-tag').inputValue()).toBe('Spring')
      expect(await page.locator('#top-links tbody tr').count()).toBe(2)
      await expectNoCsp(page, violations)
      expect(await seriousAxe(page)).toEqual([])
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width)
      await keepScreenshot(page, `dashboard-overview-tag-${name}`, { fullPage: true })

      // The Tags screen: a Statistics link on each row.
      await page.goto(`${suite.origin}/dashboard/tags`)
      expect(
        await page.locator(`#item-${tagId} a[href="/dashboard/tags/${tagId}/stats"]`).textContent(),
      ).toBe('Statistics of Spring')
      await expectNoCsp(page, violations)
      expect(await seriousAxe(page)).toEqual([])
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width)
      await keepScreenshot(page, `dashboard-tags-${name}`, { fullPage: true })
    }
  }, 120_000)

  it('chooses a tag on the Overview without JavaScript', async () => {
    const { page } = await openPage(suite.browser, {
      cookies,
      context: { javaScriptEnabled: false },
    })
    await page.goto(`${suite.origin}/dashboard`)
    expect(await page.locator('#total-clicks strong').textContent()).toBe('15')
    await page.selectOption('#filter-tag', 'Sale')
    await Promise.all([
      page.waitForURL(`${suite.origin}/dashboard?tag=Sale`),
      page.click('form.overview-tag button[type=submit]'),
    ])
    expect(await page.locator('#total-links strong').textContent()).toBe('1')
    expect(await page.locator('#total-clicks strong').textContent()).toBe('5')
    await page.goto(`${suite.origin}/dashboard?tag=missing`)
    expect(await page.locator('#unknown-tag').textContent()).toContain(
      'You have no tag named missing.',
    )
    await keepScreenshot(page, 'dashboard-overview-unknown-tag')
  })
})
