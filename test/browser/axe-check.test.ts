/**
 * The accessibility check every browser suite relies on (`seriousAxe`), on a page made to fail
 * it: the serious and critical violations are reported, those of a lesser impact are not, and a
 * second check of the same document (axe-core already in it) reports the same.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumCheck, releaseChromium, sharedChromium } from '../support/browser.js'
import { openPage, seriousAxe } from '../support/dashboard-browser.js'

const chromium = chromiumCheck()

/**
 * An image without a text alternative (image-alt, critical), grey on white text
 * (color-contrast, serious), and a page without a main landmark (landmark-one-main, moderate),
 * a level-one heading (page-has-heading-one, moderate) or any landmark around its text (region,
 * moderate).
 */
const FAILING = `<!doctype html><html lang="en"><title>Failing</title>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<p style="color:#c8c8c8;background:#fff">Hard to read</p>`

describe.skipIf(!chromium.ok)('seriousAxe in Chromium', () => {
  let browser: Browser

  beforeAll(async () => {
    browser = await sharedChromium()
  })
  afterAll(() => releaseChromium(browser))

  it('reports the serious and critical violations only, on a first and a second check', async () => {
    const { page } = await openPage(browser)
    await page.setContent(FAILING)
    const expected = [
      { id: 'color-contrast', impact: 'serious', nodes: ['p'] },
      { id: 'image-alt', impact: 'critical', nodes: ['img'] },
    ]
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id)
    expect((await seriousAxe(page)).sort(byId)).toEqual(expected)
    expect(await page.evaluate('typeof axe')).toBe('object')
    expect((await seriousAxe(page)).sort(byId)).toEqual(expected)
    // The lesser ones are there to be found: axe-core run with every rule reports them.
    const all = (await page.evaluate(
      `axe.run(document).then((r) => r.violations.map((v) => v.id + ' ' + v.impact))`,
    )) as string[]
    expect(all.sort()).toEqual([
      'color-contrast serious',
      'image-alt critical',
      'landmark-one-main moderate',
      'page-has-heading-one moderate',
      'region moderate',
    ])
  })
})
