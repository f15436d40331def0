/**
 * The pixel page runs its vendors' code (a Tag Manager container runs whatever its owner put in
 * it) in a sandbox without the dashboard's origin. A signed-in dashboard user opens a pixel page
 * whose container is a probe: it reads `document.cookie` and storage, fetches `/dashboard`, and
 * opens `/dashboard` in a window to read it. On the page as served, all of it fails; on the
 * same page with only the CSP's `sandbox` taken out, the cookie and the dashboard are read, so
 * the probe would have seen them. The sandboxed page still fires its pixels and goes on to the
 * destination, with JavaScript and without (meta refresh).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumCheck } from '../support/browser.js'
import {
  openPage,
  setFirstPassword,
  startDashboard,
  stopDashboard,
  type Cookies,
  type Dashboard,
} from '../support/dashboard-browser.js'

const chromium = chromiumCheck()

const LINUX_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/** The "container": what a Custom HTML tag could do, reported on the console as JSON. */
const PROBE = `(function () {
  var report = { origin: String(self.origin) }
  function send() {
    if ('fetch' in report && 'opened' in report) console.log('probe ' + JSON.stringify(report))
  }
  try { report.cookie = document.cookie } catch (e) { report.cookie = 'threw ' + e.name }
  try { localStorage.setItem('probe', '1'); report.storage = 'written' } catch (e) { report.storage = 'threw ' + e.name }
  fetch('/dashboard', { credentials: 'include' }).then(
    function (r) { return r.text().then(function (t) { report.fetch = r.status + ' ' + t.length }) },
    function (e) { report.fetch = 'failed ' + e.name }
  ).then(send)
  var opened = null
  try { opened = window.open('/dashboard') } catch (e) { report.opened = 'threw ' + e.name; send() }
  if (!opened && !('opened' in report)) { report.opened = 'blocked'; send() }
  if (opened) {
    var tries = 0
    var timer = setInterval(function () {
      tries++
      try {
        var doc = opened.document
        if (doc.readyState === 'complete' && opened.location.pathname === '/dashboard') {
          clearInterval(timer)
          report.opened = opened.location.pathname + ' ' + doc.title
          send()
        }
      } catch (e) { clearInterval(timer); report.opened = 'threw ' + e.name; send() }
      if (tries > 200) { clearInterval(timer); report.opened = 'never loaded'; send() }
    }, 10)
  }
})()`

interface Held {
  origin: string
  /** Paths requested so far. */
  visits: string[]
  /** Lets every request held so far, and every later one, be answered. */
  release(): void
  close(): Promise<void>
}

/**
 * A destination that answers only once released: until then the pixel page's navigation to it
 * is pending and the page stays, so the probe has all the time it needs.
 */
async function heldDestination(): Promise<Held> {
  const visits: string[] = []
  let released = false
  const waiting: (() => void)[] = []
  const server: Server = createServer((request, response) => {
    visits.push(request.url ?? '')
    const answer = () => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      response.end(`<!doctype html><title>Landed</title><h1>Landed on ${request.url}</h1>`)
    }
    if (released) answer()
    else waiting.push(answer)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    visits,
    release() {
      released = true
      for (const answer of waiting.splice(0)) answer()
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describe.skipIf(!chromium.ok)('the pixel page runs its vendors without this origin', () => {
  let d: Dashboard
  let session: Cookies
  const held: Held[] = []

  beforeAll(async () => {
    d = await startDashboard()
    const { page } = await openPage(d.browser)
    await setFirstPassword(page, d.passwordLink, 'a sound password for the probe')
    session = await page.context().cookies()
    // A cookie scripts of this origin could read (the session cookie is HttpOnly).
    session.push({
      name: 'visible',
      value: 'to-this-origin',
      domain: 'short.test',
      path: '/',
      expires: -1,
      httpOnly: false,
      secure: false,
      sameSite: 'Lax',
    })
  })
  afterAll(async () => {
    await Promise.all(held.map((h) => h.close()))
    await stopDashboard(d?.browser, d?.s)
  })

  async function pixelLink(destination: string, type: string, value: string): Promise<string> {
    const pixel = await d.s.api('POST', '/pixels', { name: `${type}-${value}`, type, value })
    expect(pixel.status).toBe(201)
    const id = (pixel.json as { data: { id: number } }).data.id
    const link = await d.s.api('POST', '/links', {
      url: destination,
      domain_id: 1,
      'pixel_ids[0]': id,
    })
    expect(link.status).toBe(201)
    return (link.json as { data: { alias: string } }).data.alias
  }

  /** A signed-in visitor's page whose https requests are answered locally: the probe as GTM. */
  async function visitor(options: { javaScript: boolean }) {
    const { context, page } = await openPage(d.browser, {
      cookies: session,
      context: { userAgent: LINUX_CHROME, javaScriptEnabled: options.javaScript },
      cspEvents: false,
    })
    const requested: string[] = []
    await context.route(
      (url) => url.protocol === 'https:',
      (route) => {
        const url = route.request().url()
        requested.push(url)
        const gtm = url.startsWith('https://www.googletagmanager.com/gtm.js')
        const script = route.request().resourceType() === 'script'
        return route.fulfill({
          status: 200,
          contentType: script ? 'application/javascript' : 'image/gif',
          body: gtm
            ? PROBE
            : script
              ? ''
              : Buffer.from('R0lGODlhAQABAAAAACwAAAAAAQABAAA=', 'base64'),
        })
      },
    )
    return { context, page, requested }
  }

  async function probe(page: Page, url: string): Promise<Record<string, string>> {
    const reported = page.waitForEvent('console', {
      predicate: (m) => m.text().startsWith('probe '),
      timeout: 10_000,
    })
    await page.goto(url, { waitUntil: 'commit' })
    return JSON.parse((await reported).text().slice('probe '.length)) as Record<string, string>
  }

  it('keeps the dashboard, its cookies and storage out of the reach of a container', async () => {
    const destination = await heldDestination()
    held.push(destination)
    const alias = await pixelLink(`${destination.origin}/after`, 'google-tag-manager', 'GTM-PROBE1')
    const { page, requested } = await visitor({ javaScript: true })
    const report = await probe(page, `${d.origin}/${alias}`)
    expect(report).toEqual({
      origin: 'null',
      cookie: 'threw SecurityError',
      storage: 'threw SecurityError',
      fetch: 'failed TypeError',
      opened: 'blocked',
    })
    // The container was the tenant's, and the visitor still goes on to the destination.
    expect(requested).toContain('https://www.googletagmanager.com/gtm.js?id=GTM-PROBE1')
    destination.release()
    await page.waitForURL(`${destination.origin}/after`, { timeout: 5000 })
    expect(await page.locator('h1').textContent()).toBe('Landed on /after')
  })

  it('would have let the same container read the dashboard without the sandbox', async () => {
    const destination = await heldDestination()
    held.push(destination)
    const alias = await pixelLink(`${destination.origin}/after`, 'google-tag-manager', 'GTM-PROBE2')
    const { context, page } = await visitor({ javaScript: true })
    // The page as served, with only the CSP's sandbox directive taken out.
    let servedCsp = ''
    await context.route(`${d.origin}/${alias}`, async (route) => {
      const served = await d.s.send(`/${alias}`, { headers: { 'user-agent': LINUX_CHROME } })
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(served.headers)) {
        if (typeof value === 'string') headers[name] = value
      }
      servedCsp = headers['content-security-policy'] ?? ''
      headers['content-security-policy'] = servedCsp.replace(/; sandbox [^;]*$/, '')
      await route.fulfill({ status: served.status, headers, body: served.body })
    })
    const report = await probe(page, `${d.origin}/${alias}`)
    expect(report).toEqual({
      origin: d.origin,
      cookie: 'visible=to-this-origin',
      storage: 'written',
      // The page's CSP allows no fetch from this origin in any case.
      fetch: 'failed TypeError',
      opened: '/dashboard Overview · slink',
    })
    expect(servedCsp).toMatch(/; sandbox allow-scripts$/)
    destination.release()
    await page.waitForURL(`${destination.origin}/after`, { timeout: 5000 })
  })

  it('still fires a beacon and goes on by meta refresh without JavaScript', async () => {
    const destination = await heldDestination()
    held.push(destination)
    destination.release()
    const alias = await pixelLink(`${destination.origin}/plain`, 'facebook', '555000111')
    const { page, requested } = await visitor({ javaScript: false })
    await page.goto(`${d.origin}/${alias}`)
    await page.waitForURL(`${destination.origin}/plain`, { timeout: 5000 })
    expect(await page.locator('h1').textContent()).toBe('Landed on /plain')
    expect(requested).toContain('https://www.facebook.com/tr?id=555000111&ev=PageView&noscript=1')
  })
})
