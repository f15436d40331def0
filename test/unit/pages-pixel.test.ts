import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import {
  pixelPage,
  PIXEL_REDIRECT_DELAY_MS,
  type PixelPageInput,
  type RenderedPage,
} from '../../src/pages/index.js'
import { PIXEL_VENDORS } from '../../src/pages/pixel-vendors.js'
import type { PixelType } from '../../src/pixels/types.js'

const DESTINATION = 'https://example.com/landing?utm_source=x&b=2'

function directives(page: RenderedPage): Map<string, string[]> {
  const csp = page.headers['Content-Security-Policy'] ?? ''
  return new Map(
    csp.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/)
      return [name!, values]
    }),
  )
}

/** The hosts (`https://` sources) a directive allows, sorted. */
function hostsOf(page: RenderedPage, directive: string): string[] {
  const values = directives(page).get(directive) ?? []
  return values
    .filter((v) => v.startsWith('https://'))
    .map((v) => v.slice(8))
    .sort()
}

function allows(hosts: string[], url: string): boolean {
  const { hostname, protocol } = new URL(url)
  return (
    protocol === 'https:' &&
    hosts.some((h) => (h.startsWith('*.') ? hostname.endsWith(h.slice(1)) : hostname === h))
  )
}

/** `<img>` sources outside and inside the `<template>`, entity-decoded. */
function images(page: RenderedPage): { live: string[]; inert: string[] } {
  const template = /<template\b[^>]*>([\s\S]*?)<\/template>/.exec(page.html)?.[1] ?? ''
  const outside = page.html.replace(template, '')
  const srcs = (text: string) =>
    [...text.matchAll(/<img src="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'))
  return { live: srcs(outside), inert: srcs(template) }
}

interface FakeButton {
  hidden: boolean
  disabled: boolean
  click?: (event: { preventDefault(): void }) => void
  addEventListener(type: string, fn: (event: { preventDefault(): void }) => void): void
}

/** Runs the page's script against a tiny fake DOM and records what it does. */
function runScript(page: RenderedPage) {
  const code = /<script nonce="[^"]+">\n([\s\S]*?)\n<\/script>/.exec(page.html)?.[1]
  expect(code).toBeDefined()
  const loaded: string[] = []
  const added: unknown[] = []
  const timers: { fn: () => void; ms: number }[] = []
  const replaced: string[] = []
  const button = (): FakeButton => ({
    hidden: true,
    disabled: false,
    addEventListener(type, fn) {
      if (type === 'click') this.click = fn
    },
  })
  const elements = new Map<string, unknown>()
  for (const id of ['pixel-accept', 'pixel-decline']) {
    if (page.html.includes(`id="${id}"`)) elements.set(id, button())
  }
  if (page.html.includes('id="pixel-beacons"')) {
    elements.set('pixel-beacons', { content: { cloneNode: () => 'beacons' } })
  }
  const window: Record<string, unknown> = {
    setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }),
    location: { replace: (url: string) => replaced.push(url) },
  }
  const document = {
    currentScript: { nonce: 'n' },
    createElement: () => ({}),
    head: { appendChild: (el: { src: string }) => loaded.push(el.src) },
    body: { appendChild: (node: unknown) => added.push(node) },
    getElementById: (id: string) => elements.get(id) ?? null,
  }
  runInNewContext(code!, { window, document })
  const click = (id: string) => {
    let prevented = false
    ;(elements.get(id) as FakeButton).click!({ preventDefault: () => (prevented = true) })
    return prevented
  }
  const accept = () => elements.get('pixel-accept') as FakeButton
  return { loaded, added, timers, replaced, window, click, accept }
}

const render = (input: Partial<PixelPageInput>) =>
  pixelPage({ destination: DESTINATION, pixels: [], consent: false, ...input })

/** Per type: a stored value, and the part of it the vendor request must carry. */
const TYPES: [PixelType, string, string, string][] = [
  // type, value, expected in a vendor URL, a host the page must allow for scripts
  ['adroll', 'ADV123-PIX456', 'ADV123', 's.adroll.com'],
  ['bing', '343210987', '343210987', 'bat.bing.com'],
  ['facebook', '1234567890123', '1234567890123', 'connect.facebook.net'],
  ['google-ads', 'AW-987654321', 'AW-987654321', 'www.googletagmanager.com'],
  ['google-ads', '987654321', 'AW-987654321', 'www.googletagmanager.com'],
  ['google-analytics', 'G-ABC123XYZ', 'G-ABC123XYZ', '*.googletagmanager.com'],
  ['google-tag-manager', 'GTM-K9X8Y7', 'GTM-K9X8Y7', 'www.googletagmanager.com'],
  ['google-tag-manager', 'K9X8Y7', 'GTM-K9X8Y7', 'www.googletagmanager.com'],
  ['linkedin', '5544332', '5544332', 'snap.licdn.com'],
  ['pinterest', '2612345678901', '2612345678901', 's.pinimg.com'],
  ['quora', 'a1b2c3d4e5f6', 'a1b2c3d4e5f6', 'a.quora.com'],
  ['twitter', 'o1a2b', 'o1a2b', 'static.ads-twitter.com'],
]

describe('pixel page, one pixel of each type', () => {
  it.each(TYPES)('%s %s: a vendor request carries the value', (type, value, expected, host) => {
    const page = render({ pixels: [{ type, value }] })
    const { loaded } = runScript(page)
    const scriptHits = loaded.filter((url) => url.includes(expected))
    const imgHits = images(page).live.filter((url) => url.includes(expected))
    expect(scriptHits.length + imgHits.length).toBeGreaterThan(0)
    for (const url of loaded) expect(allows(hostsOf(page, 'script-src'), url)).toBe(true)
    for (const url of images(page).live) expect(allows(hostsOf(page, 'img-src'), url)).toBe(true)
    expect(hostsOf(page, 'script-src')).toContain(host)
  })

  it.each(TYPES)('%s %s: the CSP lists exactly the vendor hosts', (type, value) => {
    const page = render({ pixels: [{ type, value }] })
    const { hosts } = PIXEL_VENDORS[type]
    expect(hostsOf(page, 'script-src')).toEqual([...hosts.script].sort())
    expect(hostsOf(page, 'img-src')).toEqual([...hosts.img].sort())
    expect(hostsOf(page, 'connect-src')).toEqual([...hosts.connect].sort())
    expect(hostsOf(page, 'frame-src')).toEqual([...hosts.frame].sort())
  })

  it('adroll carries both of its ids: the advertiser in the URL, the pixel in the snippet', () => {
    const page = render({ pixels: [{ type: 'adroll', value: 'ADV123-PIX456' }] })
    expect(runScript(page).loaded).toContain('https://s.adroll.com/j/ADV123/roundtrip.js')
    expect(page.html).toContain('w.adroll_pix_id = "PIX456"')
  })

  it('x is the twitter pixel', () => {
    const page = render({ pixels: [{ type: 'x', value: 'o1a2b' }] })
    expect(hostsOf(page, 'script-src')).toEqual(['static.ads-twitter.com'])
  })
})

describe('pixel page, several pixels', () => {
  it('lists the hosts of both vendors, each once, and nothing else', () => {
    const page = render({
      pixels: [
        { type: 'facebook', value: '111' },
        { type: 'linkedin', value: '222' },
        { type: 'facebook', value: '333' },
      ],
    })
    expect(hostsOf(page, 'script-src')).toEqual(['connect.facebook.net', 'snap.licdn.com'])
    expect(hostsOf(page, 'img-src')).toEqual(['px.ads.linkedin.com', 'www.facebook.com'])
    expect(hostsOf(page, 'connect-src')).toEqual(['px.ads.linkedin.com', 'www.facebook.com'])
    expect(directives(page).has('frame-src')).toBe(false)
    expect(images(page).live).toEqual([
      'https://www.facebook.com/tr?id=111&ev=PageView&noscript=1',
      'https://px.ads.linkedin.com/collect/?pid=222&fmt=gif',
      'https://www.facebook.com/tr?id=333&ev=PageView&noscript=1',
    ])
    const { loaded, window } = runScript(page)
    expect(loaded).toEqual([
      'https://connect.facebook.net/en_US/fbevents.js',
      'https://snap.licdn.com/li.lms-analytics/insight.min.js',
    ])
    const fbq = window.fbq as { queue: ArrayLike<unknown>[] }
    expect(fbq.queue.map((args) => Array.from(args))).toEqual([
      ['init', '111'],
      ['track', 'PageView'],
      ['init', '333'],
      ['track', 'PageView'],
    ])
  })

  it('with no pixels allows no other host', () => {
    const page = render({})
    expect(page.headers['Content-Security-Policy']).not.toContain('https://')
  })
})

describe('pixel page, going on to the destination', () => {
  it('meta refresh and the script both point at the destination', () => {
    const page = render({ pixels: [{ type: 'quora', value: 'abc' }] })
    expect(page.html).toContain(
      '<meta http-equiv="refresh" content="1;url=https://example.com/landing?utm_source=x&amp;b=2">',
    )
    expect(page.html).toContain('<a href="https://example.com/landing?utm_source=x&amp;b=2">')
    const { timers, replaced, loaded } = runScript(page)
    expect(loaded).toEqual(['https://a.quora.com/qevents.js'])
    expect(timers.map((t) => t.ms)).toEqual([PIXEL_REDIRECT_DELAY_MS])
    expect(PIXEL_REDIRECT_DELAY_MS).toBeGreaterThanOrEqual(300)
    expect(PIXEL_REDIRECT_DELAY_MS).toBeLessThanOrEqual(500)
    expect(replaced).toEqual([])
    timers[0]!.fn()
    expect(replaced).toEqual([DESTINATION])
  })

  it('a broken snippet does not stop the redirect nor the other pixels', () => {
    const page = render({
      pixels: [
        { type: 'facebook', value: '1' },
        { type: 'pinterest', value: '2' },
      ],
    })
    const code = page.html.replace("w.fbq('init'", "undefinedFunction(); w.fbq('init'")
    const { loaded, timers } = runScript({ ...page, html: code })
    expect(loaded).toContain('https://s.pinimg.com/ct/core.js')
    expect(timers).toHaveLength(1)
  })

  it('an unusable destination leads nowhere', () => {
    const page = render({ destination: 'javascript:alert(1)' })
    expect(page.html).not.toContain('http-equiv="refresh"')
    expect(page.html).toContain('"destination":null')
    runScript(page).timers[0]!.fn()
  })
})

describe('pixel page with consent', () => {
  const consentPage = () =>
    render({
      consent: true,
      pixels: [
        { type: 'bing', value: '343210987' },
        { type: 'google-analytics', value: 'G-ABC' },
      ],
    })

  it('asks first, naming the vendors; nothing loads or redirects before a choice', () => {
    const page = consentPage()
    expect(page.html).toContain('Microsoft Advertising (Bing), Google Analytics')
    expect(page.html).not.toContain('http-equiv="refresh"')
    expect(page.html).not.toMatch(/<noscript>/)
    expect(images(page)).toEqual({
      live: [],
      inert: ['https://bat.bing.com/action/0?ti=343210987&Ver=2'],
    })
    const { loaded, added, timers, replaced, window, accept } = runScript(page)
    expect(loaded).toEqual([])
    expect(added).toEqual([])
    expect(timers).toEqual([])
    expect(replaced).toEqual([])
    expect(window.uetq).toBeUndefined()
    expect(window.gtag).toBeUndefined()
    expect(accept().hidden).toBe(false)
  })

  it('accept loads the pixels and beacons, then goes on', () => {
    const run = runScript(consentPage())
    run.click('pixel-accept')
    expect(run.loaded).toEqual([
      'https://bat.bing.com/bat.js',
      'https://www.googletagmanager.com/gtag/js?id=G-ABC',
    ])
    expect(run.added).toEqual(['beacons'])
    expect(run.accept().disabled).toBe(true)
    expect(run.timers.map((t) => t.ms)).toEqual([PIXEL_REDIRECT_DELAY_MS])
    run.timers[0]!.fn()
    expect(run.replaced).toEqual([DESTINATION])
  })

  it('decline goes on at once without pixels', () => {
    const run = runScript(consentPage())
    expect(run.click('pixel-decline')).toBe(true)
    expect(run.replaced).toEqual([DESTINATION])
    expect(run.loaded).toEqual([])
    expect(run.added).toEqual([])
  })

  it('has a plain link that continues without pixels when scripts do not run', () => {
    const page = consentPage()
    expect(page.html).toMatch(
      /<a class="button secondary" id="pixel-decline" href="https:\/\/example\.com\/landing\?utm_source=x&amp;b=2">/,
    )
    expect(page.html).toMatch(/<button type="button" id="pixel-accept" hidden>/)
  })
})
