import { describe, expect, it } from 'vitest'
import {
  linkDisabledPage,
  linkExpiredPage,
  notFoundPage,
  passwordPage,
  pixelPage,
  previewPage,
  statsPrivatePage,
  tooManyAttemptsPage,
  type RenderedPage,
} from '../../src/pages/index.js'

function directives(page: RenderedPage): Map<string, string[]> {
  const csp = page.headers['Content-Security-Policy'] ?? ''
  return new Map(
    csp.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/)
      return [name!, values]
    }),
  )
}

function nonceOf(page: RenderedPage): string {
  const style = directives(page).get('style-src') ?? []
  const match = /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(style[0] ?? '')
  expect(match).not.toBeNull()
  return match![1]!
}

const preview = () =>
  previewPage({
    shortUrl: 'http://short.test/abc',
    destination: 'https://example.com/',
    title: null,
    endsAt: null,
    expirationClicks: null,
    clicks: 0,
    targeting: null,
    statsUrl: null,
    protected: false,
  })

const plainPages: [string, () => RenderedPage][] = [
  ['password', () => passwordPage({ alias: 'abc', formAction: '/abc', kind: 'link' })],
  ['stats password', () => passwordPage({ alias: 'abc', formAction: '/abc/stats', kind: 'stats' })],
  ['too many attempts', () => tooManyAttemptsPage({ retryAfterSeconds: 30 })],
  ['disabled', linkDisabledPage],
  ['expired', linkExpiredPage],
  ['not found', notFoundPage],
  ['stats private', statsPrivatePage],
  ['preview', preview],
]

const pixelPages: [string, () => RenderedPage][] = [
  [
    'pixel',
    () =>
      pixelPage({
        destination: 'https://example.com/',
        pixels: [{ type: 'facebook', value: '1234' }],
        consent: false,
      }),
  ],
  [
    'pixel with consent',
    () =>
      pixelPage({
        destination: 'https://example.com/',
        pixels: [{ type: 'bing', value: '5678' }],
        consent: true,
      }),
  ],
]

describe('page headers', () => {
  it.each([...plainPages, ...pixelPages])('%s page sets the security headers', (name, render) => {
    const page = render()
    expect(page.headers).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    })
    const csp = directives(page)
    expect(csp.get('default-src')).toEqual(["'none'"])
    expect(csp.get('img-src')?.slice(0, 2)).toEqual(["'self'", 'data:'])
    // The link password form ends on the destination's host (see password-page.ts).
    expect(csp.get('form-action')).toEqual(
      name === 'password'
        ? [
            "'self'",
            'https:',
            'http:',
            ...'mailto tel sms whatsapp tg spotify itms-apps market intent zoommtg msteams'
              .split(' ')
              .map((scheme) => `${scheme}:`),
          ]
        : ["'self'"],
    )
    expect(csp.get('base-uri')).toEqual(["'none'"])
    expect(csp.get('frame-ancestors')).toEqual(["'none'"])
    expect(page.html).toMatch(/^<!doctype html>/)
    expect(page.html).toContain(
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
    )
    expect(page.html).toContain('<meta name="robots" content="noindex">')
  })

  it.each(plainPages)(
    '%s page: same-origin referrer, no script, nothing from another host',
    (_name, render) => {
      const page = render()
      expect(page.headers['Referrer-Policy']).toBe('same-origin')
      const csp = directives(page)
      expect([...csp.keys()].sort()).toEqual(
        [
          'base-uri',
          'default-src',
          'form-action',
          'frame-ancestors',
          'img-src',
          'style-src',
        ].sort(),
      )
      expect(csp.get('img-src')).toEqual(["'self'", 'data:'])
      expect(page.html).not.toMatch(/<script\b/i)
      expect(page.html).not.toMatch(/\ssrc="/)
    },
  )

  it.each(pixelPages)('%s page: strict-origin referrer and a nonce script', (_name, render) => {
    const page = render()
    expect(page.headers['Referrer-Policy']).toBe('strict-origin')
    expect(directives(page).get('script-src')?.[0]).toBe(`'nonce-${nonceOf(page)}'`)
    // Its vendors' code runs in an opaque origin, never as this one (the dashboard's).
    expect(directives(page).get('sandbox')).toEqual(['allow-scripts'])
  })

  it.each([...plainPages, ...pixelPages])(
    '%s page: every <script> and <style> carries the CSP nonce, new on every render',
    (_name, render) => {
      const first = render()
      const nonce = nonceOf(first)
      const tags = [...first.html.matchAll(/<(script|style)\b([^>]*)>/gi)]
      expect(tags.length).toBeGreaterThan(0)
      for (const tag of tags) expect(tag[2]).toBe(` nonce="${nonce}"`)
      expect(first.html).not.toMatch(/\sstyle="/)
      const second = render()
      expect(nonceOf(second)).not.toBe(nonce)
      expect(Buffer.from(nonce, 'base64')).toHaveLength(16)
    },
  )
})
