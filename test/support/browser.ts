/**
 * Real Chromium for the page tests: Debian's `chromium` driven by playwright-core (never a
 * downloaded browser), one for each test process, the short domain `short.test` resolved to loopback, and a small local
 * HTTP server to stand for destinations. Without Chromium the browser suites skip with a
 * one-line reason, except under CI=true, where they fail.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Browser, type Locator, type Page } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export function chromiumCheck(): { ok: boolean; reason: string } {
  if (existsSync(CHROMIUM)) return { ok: true, reason: '' }
  const reason = `Chromium not found at ${CHROMIUM} (apt-get install chromium)`
  if (process.env.CI === 'true') throw new Error(`${reason}; required under CI=true`)
  console.warn(`skipping the browser tests: ${reason}`)
  return { ok: false, reason }
}

let shared: Promise<Browser> | null = null

/**
 * Chromium for this test process: launched by the first suite that asks (or again, if it has
 * gone), then shared by the suites after it, each in browser contexts of its own; a launch
 * costs about a second of CPU. `releaseChromium` ends a suite's use of it.
 */
export async function sharedChromium(): Promise<Browser> {
  const browser = await (shared ??= launchChromium())
  if (browser.isConnected()) return browser
  shared = launchChromium()
  return shared
}

/** Closes every context a suite left open in Chromium; Chromium stays for the next suite. */
export async function releaseChromium(browser: Browser | undefined): Promise<void> {
  for (const context of browser?.contexts() ?? []) await context.close()
}

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
      '--host-resolver-rules=MAP short.test 127.0.0.1',
    ],
  })
}

/** `TEST_SCREENSHOTS=1`: the browser suites keep their pictures in test-artifacts/. */
export const SCREENSHOTS = process.env.TEST_SCREENSHOTS === '1'

/**
 * Keeps a picture of a page (or of one element) as test-artifacts/`name`.png, for people to look
 * at when TEST_SCREENSHOTS=1; otherwise does nothing: no test reads these files, and each costs
 * Chromium a full render and a PNG encode.
 */
export async function keepScreenshot(
  target: Page | Locator,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (!SCREENSHOTS) return
  mkdirSync('test-artifacts', { recursive: true })
  await target.screenshot({ path: `test-artifacts/${name}.png`, ...options })
}

export interface Destination {
  /** `http://127.0.0.1:<port>` */
  origin: string
  /** Paths requested so far, with their query. */
  visits: string[]
  close(): Promise<void>
}

/** A local web server standing for link destinations: every path answers a small page. */
export async function startDestination(): Promise<Destination> {
  const visits: string[] = []
  const server: Server = createServer((request, response) => {
    visits.push(request.url ?? '')
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(`<!doctype html><title>Landed</title><h1>Landed on ${request.url}</h1>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    visits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
