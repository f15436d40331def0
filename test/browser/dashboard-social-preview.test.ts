/**
 * The link form's social card in real Chromium, against `slink serve`: it follows the fields as
 * they are typed (title, description, image over https, a note for an http image), a stored
 * script payload never runs, the image loads under the link form's CSP with no violation, and
 * screenshots of the section at phone and desktop width, light and dark.
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

const PASSWORD = 'social preview password'
/** If it ever ran, it would set `window.__xss`. */
const PAYLOAD = `"><script>window.__xss='title'</script><img src=x onerror="window.__xss='img'">`
/** A 1×1 PNG: the image the card's https URL answers with (the browser never leaves the machine). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPj/HwAFBgJ/lU6EyQAAAABJRU5ErkJggg==',
  'base64',
)
const IMAGE = 'https://cdn.social.test/card.png'

describe.skipIf(!chromium.ok)('dashboard social preview in Chromium', () => {
  const suite = dashboardSuite()

  const open = (options: { width?: number; dark?: boolean } = {}) =>
    openPage(suite.browser, { ...options })

  it('draws the card as the fields are typed and saves them; screenshots', async () => {
    const { context, page, violations } = await open()
    let fetched = 0
    await context.route('https://cdn.social.test/**', (route) => {
      fetched++
      return route.fulfill({ status: 200, contentType: 'image/png', body: PNG })
    })
    await setFirstPassword(page, suite.passwordLink, PASSWORD)
    await page.goto(`${suite.origin}/dashboard/links/new`)
    await page.fill('#url', 'https://example.com/social')
    await page.fill('#alias', 'social-card')
    await page.click('#section-social summary')

    const card = () =>
      page.evaluate(() => ({
        title: document.getElementById('social-card-title')!.textContent,
        description: document.getElementById('social-card-description')!.textContent,
        domain: document.getElementById('social-card-domain')!.textContent,
        imageShown: !document.getElementById('social-card-image-box')!.hidden,
        src: document.getElementById('social-card-image')!.getAttribute('src'),
        httpNote: !document.getElementById('social-card-http')!.hidden,
      }))
    expect(await card()).toEqual({
      title: 'short.test',
      description: '',
      domain: 'short.test',
      imageShown: false,
      src: null,
      httpNote: false,
    })
    await page.fill('#title', 'The link title')
    expect((await card()).title).toBe('The link title')
    await page.fill('#og_title', PAYLOAD)
    await page.fill('#og_description', 'Half price <b>today</b> & tomorrow')
    expect(await card()).toMatchObject({
      title: PAYLOAD,
      description: 'Half price <b>today</b> & tomorrow',
    })
    await page.fill('#og_image', 'http://cdn.social.test/plain.png')
    expect(await card()).toMatchObject({ imageShown: false, src: null, httpNote: true })
    await page.fill('#og_image', IMAGE)
    expect(await card()).toMatchObject({ imageShown: true, src: IMAGE, httpNote: false })
    await page.waitForFunction(
      () => (document.getElementById('social-card-image') as HTMLImageElement).naturalWidth === 1,
    )
    expect(fetched).toBeGreaterThan(0)
    expect(await seriousAxe(page)).toEqual([])

    await Promise.all([
      page.waitForURL(/\/dashboard\/links\/\d+\?created/),
      page.click('#save-link'),
    ])
    const id = Number(/\/dashboard\/links\/(\d+)/.exec(page.url())![1])
    const res = await suite.s.api('GET', `/links/${id}`)
    expect((res.json as { data: Record<string, unknown> }).data).toMatchObject({
      og_title: PAYLOAD,
      og_description: 'Half price <b>today</b> & tomorrow',
      og_image: IMAGE,
    })
    expect(await page.evaluate('window.__xss === undefined')).toBe(true)
    await expectNoCsp(page, violations)

    const cookies = await context.cookies()
    const shown = await suite.s.api('PATCH', `/links/${id}`, {
      og_title: 'Spring sale: half price',
    })
    expect(shown.status).toBe(200)
    const other = await open()
    await other.context.route('https://cdn.social.test/**', (route) =>
      route.fulfill({ status: 200, contentType: 'image/png', body: PNG }),
    )
    await other.context.addCookies(cookies)
    for (const { width, dark, name } of VIEWS) {
      await showAs(other.page, { width, dark })
      await other.page.goto(`${suite.origin}/dashboard/links/${id}`)
      await other.page.click('#section-social summary')
      await other.page.waitForFunction(
        () => (document.getElementById('social-card-image') as HTMLImageElement).naturalWidth === 1,
      )
      expect(await seriousAxe(other.page)).toEqual([])
      expect(await other.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        width,
      )
      await keepScreenshot(
        other.page.locator('#section-social'),
        `dashboard-social-preview-${name}`,
      )
      await expectNoCsp(other.page, other.violations)
    }
  }, 180_000)
})
