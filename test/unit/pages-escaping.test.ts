import { describe, expect, it } from 'vitest'
import { escapeHtml, markup, raw } from '../../src/pages/html.js'
import { httpUrl, safeFormAction, safeHref, scriptJson } from '../../src/pages/safe-values.js'
import {
  linkDisabledPage,
  passwordPage,
  pixelPage,
  previewPage,
  tooManyAttemptsPage,
  type RenderedPage,
} from '../../src/pages/index.js'

const HOSTILE = `"'><script>alert(1)</script><img src=x onerror=alert(2)>`

/** Every `href`/`src`/`action` value and meta refresh target in the page, entity-decoded. */
function urlsIn(page: string): string[] {
  const attrs = [...page.matchAll(/\s(?:href|src|action)="([^"]*)"/g)].map((m) => m[1]!)
  const refresh = [...page.matchAll(/content="\d+;url=([^"]*)"/g)].map((m) => m[1]!)
  return [...attrs, ...refresh].map((v) => v.replaceAll('&amp;', '&'))
}

function expectNoInjection(page: RenderedPage): void {
  expect(page.html).not.toContain('<script>alert(1)')
  expect(page.html).not.toContain('<img src=x')
  // No element carries an event handler attribute, and no attribute value is broken out of.
  expect(page.html).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i)
  expect(page.html).not.toMatch(/="[^"]*"'>/)
  for (const url of urlsIn(page.html)) {
    expect(url === '#' || url.startsWith('/') || /^https?:\/\//.test(url) || url === 'data:,').toBe(
      true,
    )
  }
  // Only our own <script> elements: each carries the nonce.
  for (const tag of page.html.matchAll(/<script\b[^>]*>/gi)) {
    expect(tag[0]).toMatch(/^<script nonce="[^"]+">$/)
  }
}

describe('markup', () => {
  it('escapes interpolated text and attributes, keeps SafeHtml, skips null and booleans', () => {
    const out = markup`<p title="${HOSTILE}">${HOSTILE}${raw('<b>ok</b>')}${null}${false}${[1, '<']}</p>`
    expect(out.text).toBe(
      `<p title="${escapeHtml(HOSTILE)}">${escapeHtml(HOSTILE)}<b>ok</b>1&lt;</p>`,
    )
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;')
  })
})

describe('safe values', () => {
  it.each([
    ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://Example.COM/x', 'https://example.com/x'],
    ['javascript:alert(1)', '#'],
    ['JavaScript:alert(1)', '#'],
    [' javascript:alert(1)', '#'],
    ['java\tscript:alert(1)', '#'],
    ['data:text/html,<script>alert(1)</script>', '#'],
    ['vbscript:msgbox(1)', '#'],
    ['file:///etc/passwd', '#'],
    ['//evil.example/', '#'],
    ['/relative', '#'],
    ['https://exa mple.com', '#'],
    ['', '#'],
  ])('safeHref(%j) is %j', (input, expected) => {
    expect(safeHref(input)).toBe(expected)
    expect(httpUrl(input)).toBe(expected === '#' ? null : expected)
  })

  it.each([
    ['/abc', '/abc'],
    ['/abc/stats', '/abc/stats'],
    ['//evil.example/x', '#'],
    ['/\\evil.example/x', '#'],
    ['javascript:alert(1)', '#'],
    ['https://short.test/abc', 'https://short.test/abc'],
  ])('safeFormAction(%j) is %j', (input, expected) => {
    expect(safeFormAction(input)).toBe(expected)
  })

  it('keeps </script>, <!-- and line separators out of JSON in a script', () => {
    const json = scriptJson({ a: '</script><script>alert(1)</script>', b: '<!--', c: '\u2028&' })
    expect(json).not.toMatch(/<|>|\u2028/)
    expect(JSON.parse(json)).toEqual({
      a: '</script><script>alert(1)</script>',
      b: '<!--',
      c: '\u2028&',
    })
  })
})

describe('hostile stored values are escaped on every page', () => {
  const pages: [string, () => RenderedPage][] = [
    [
      'password page',
      () =>
        passwordPage({
          alias: HOSTILE,
          formAction: 'javascript:alert(1)',
          error: HOSTILE,
          kind: 'link',
        }),
    ],
    [
      'stats password page',
      () => passwordPage({ alias: HOSTILE, formAction: '/x/stats', error: HOSTILE, kind: 'stats' }),
    ],
    ['too many attempts', () => tooManyAttemptsPage({ retryAfterSeconds: Number.NaN })],
    ['disabled', () => linkDisabledPage()],
    [
      'preview',
      () =>
        previewPage({
          shortUrl: `javascript:alert(1)//${HOSTILE}`,
          destination: `javascript:alert(1)//${HOSTILE}`,
          title: HOSTILE,
          endsAt: HOSTILE,
          expirationClicks: 5,
          clicks: 1,
          targeting: {
            type: HOSTILE,
            entries: [{ key: HOSTILE, value: `javascript:alert(1)//${HOSTILE}` }],
          },
          statsUrl: `javascript:alert(1)//${HOSTILE}`,
          protected: false,
        }),
    ],
    [
      'pixel page',
      () =>
        pixelPage({
          destination: `javascript:alert(1)//${HOSTILE}`,
          pixels: [
            { type: 'facebook', value: HOSTILE },
            { type: 'google-analytics', value: `</script><script>alert(1)</script>` },
            { type: 'adroll', value: `a-</script>${HOSTILE}` },
          ],
          consent: false,
        }),
    ],
    [
      'pixel page with consent',
      () =>
        pixelPage({
          destination: `https://example.com/?q="></a><script>alert(1)</script>`,
          pixels: [{ type: 'twitter', value: HOSTILE }],
          consent: true,
        }),
    ],
  ]

  it.each(pages)('%s', (_name, render) => {
    expectNoInjection(render())
  })

  it('shows hostile text as text', () => {
    const page = passwordPage({ alias: 'a', formAction: '/a', error: '<b>wrong</b>', kind: 'link' })
    expect(page.html).toContain('&lt;b&gt;wrong&lt;/b&gt;')
  })

  it('keeps a hostile destination inside the pixel script a JSON string', () => {
    const page = pixelPage({
      destination: 'https://example.com/</script><script>alert(1)</script>',
      pixels: [],
      consent: false,
    })
    const scripts = page.html.match(/<\/script>/g) ?? []
    expect(scripts).toHaveLength(1)
    expect(page.html).toContain('"destination":"https://example.com/%3C/script%3E')
  })
})
