/**
 * The scaffolding the dashboard's Chromium suites share: `slink serve` started and the test
 * process's Chromium taken together, then both given up (`dashboardSuite` does both around a
 * suite's tests), the first user's one-time link, a page in a fresh context at a given width
 * and colour scheme that records CSP violations and dialogs, setting the first password through
 * its form, serious and critical axe-core violations, and the four views (phone and desktop,
 * light and dark) each screen is checked in.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { releaseChromium, sharedChromium } from './browser.js'
import { startServer, type TestServer } from './server.js'

/** axe-core's minified build: each page compiles it again, and it is half the size. */
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

/** A signed-in session, to hand to another context. */
export type Cookies = Awaited<ReturnType<BrowserContext['cookies']>>

export interface AxeViolation {
  id: string
  impact: string
  nodes: string[]
}

/** The views every screenshot loop covers, phone before desktop, light before dark. */
export const VIEWS: readonly { width: number; dark: boolean; name: string }[] = [390, 1280]
  .flatMap((width) => [false, true].map((dark) => ({ width, dark })))
  .map(({ width, dark }) => ({
    width,
    dark,
    name: `${width === 390 ? 'phone' : 'desktop'}-${dark ? 'dark' : 'light'}`,
  }))

/**
 * Waits for `slink serve` to print the first user's one-time link; answers it on the test's
 * origin (the server prints it with the configured short domain, without the port).
 */
export async function firstUserLink(s: TestServer): Promise<string> {
  const [, token] = await s.process.waitFor(
    /^(?:http:\/\/short\.test\/password\/([A-Za-z0-9_-]{43}))$/m,
  )
  return `http://short.test:${s.port}/password/${token}`
}

export interface Dashboard {
  s: TestServer
  browser: Browser
  /** `http://short.test:<port>`: the short domain, resolved to loopback by Chromium. */
  origin: string
  /** The first user's one-time link, on `origin`. */
  passwordLink: string
}

/** `slink serve` with these settings and Chromium, started together. */
export async function startDashboard(env: Record<string, string> = {}): Promise<Dashboard> {
  const [s, browser] = await Promise.all([startServer(env), sharedChromium()])
  try {
    return {
      s,
      browser,
      origin: `http://short.test:${s.port}`,
      passwordLink: await firstUserLink(s),
    }
  } catch (error) {
    // The suite never sees them, so its afterAll could not stop them.
    await releaseChromium(browser)
    await s.stop()
    throw error
  }
}

/** Closes every context the suite opened in Chromium, then the server (either may be missing). */
export async function stopDashboard(
  browser: Browser | undefined,
  s: TestServer | undefined,
): Promise<void> {
  await releaseChromium(browser)
  await s?.stop()
}

/**
 * Called in a `describe`: `startDashboard(env)` before its tests, `stopDashboard` after them.
 * The fields are set once the suite's `beforeAll` has run.
 */
export function dashboardSuite(env: Record<string, string> = {}): Dashboard {
  const suite = {} as Dashboard
  beforeAll(async () => {
    Object.assign(suite, await startDashboard(env))
  })
  afterAll(async () => {
    await stopDashboard(suite.browser, suite.s)
  })
  return suite
}

/**
 * Shows `page` as `view`: the view's width (and `height`) and colour scheme, at once and for
 * the loads after. A loop over VIEWS turns one page from view to view rather than opening a
 * context for each (a new context is a new renderer, which compiles axe-core again).
 */
export async function showAs(
  page: Page,
  view: { width: number; dark: boolean },
  height = 900,
): Promise<void> {
  await page.setViewportSize({ width: view.width, height })
  await page.emulateMedia({ colorScheme: view.dark ? 'dark' : 'light' })
}

/**
 * Runs `check` on the page as it stands, shown in each of VIEWS in turn without a reload: the
 * dashboard's widths and colour schemes are CSS media queries, which apply at once, so a screen
 * is loaded (and given axe-core) once for its four views.
 */
export async function inEachView(
  page: Page,
  check: (view: (typeof VIEWS)[number]) => Promise<void>,
): Promise<void> {
  for (const view of VIEWS) {
    await showAs(page, view)
    await check(view)
  }
}

export interface OpenOptions {
  /** Viewport width; the height is always 900. Default 1280. */
  width?: number
  dark?: boolean
  /** Added to the context before the page opens (a signed-in session). */
  cookies?: Cookies
  /** Anything else the context needs (JavaScript off, a visitor's User-Agent, downloads). */
  context?: BrowserContextOptions
  /** Record `securitypolicyviolation` events in `window.__violations`. Default true. */
  cspEvents?: boolean
  /** Record and dismiss any dialog (a payload's `alert` would show as one). Default true. */
  dialogs?: boolean
}

export interface Opened {
  context: BrowserContext
  page: Page
  /** CSP refusals from the console, and any dialog. */
  violations: string[]
}

/** A page in a new context that records CSP violations and any dialog. */
export async function openPage(browser: Browser, options: OpenOptions = {}): Promise<Opened> {
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.dark ? 'dark' : 'light',
    ...options.context,
  })
  if (options.cookies) await context.addCookies(options.cookies)
  if (options.cspEvents ?? true) {
    // Added by the browser driver, outside the page's CSP, so the nonce does not apply to it.
    await context.addInitScript(
      `window.__violations = [];
       document.addEventListener('securitypolicyviolation', (e) =>
         window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));`,
    )
  }
  const page = await context.newPage()
  const violations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text())
  })
  if (options.dialogs ?? true) {
    page.on('dialog', (d) => {
      violations.push(`dialog: ${d.message()}`)
      void d.dismiss()
    })
  }
  return { context, page, violations }
}

/** The `securitypolicyviolation` events the page has seen (see `cspEvents`). */
export function cspEvents(page: Page): Promise<string[]> {
  return page.evaluate('window.__violations')
}

/** Neither a `securitypolicyviolation` event nor a console refusal or dialog so far. */
export async function expectNoCsp(page: Page, violations: string[]): Promise<void> {
  expect(await cspEvents(page)).toEqual([])
  expect(violations).toEqual([])
}

/**
 * Serious and critical axe-core violations of the page as it is now. axe-core reports a rule's
 * violations at the rule's own impact, so the rules of a lesser impact are not run; axe-core is
 * added to a document once.
 */
export async function seriousAxe(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof axe === "object"'))) await page.evaluate(axeSource)
  return page.evaluate(`axe.run(document, {
      resultTypes: ['violations'],
      rules: Object.fromEntries(axe._audit.rules
        .filter((r) => r.impact !== 'serious' && r.impact !== 'critical')
        .map((r) => [r.id, { enabled: false }])),
    }).then((r) =>
      r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })))`)
}

/** Sets the first user's password through the one-time link's form; lands on the Overview. */
export async function setFirstPassword(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link)
  await fillPasswordForm(page, new URL(link).origin, password)
}

/** Fills the set-password form already open on `page` and submits it. */
export async function fillPasswordForm(
  page: Page,
  origin: string,
  password: string,
): Promise<void> {
  await page.fill('#password', password)
  await page.fill('#password_confirmation', password)
  await Promise.all([page.waitForURL(`${origin}/dashboard`), page.click('button[type=submit]')])
}
