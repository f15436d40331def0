import { describe, expect, it } from 'vitest'
import {
  linkDisabledPage,
  linkExpiredPage,
  notFoundPage,
  passwordPage,
  previewPage,
  statsPrivatePage,
  tooManyAttemptsPage,
  type PreviewPageInput,
} from '../../src/pages/index.js'
import { waitText } from '../../src/pages/notice-pages.js'

describe('password page', () => {
  it('is a POST form with a current-password field and no destination', () => {
    const { html } = passwordPage({ alias: 'promo', formAction: '/promo', kind: 'link' })
    expect(html).toContain('<form method="post" action="/promo">')
    expect(html).toMatch(
      /<input type="password" id="password" name="password"\s+autocomplete="current-password"/,
    )
    expect(html).toContain('This link is protected by a password.')
    expect(html).toContain('<code>promo</code>')
    expect(html).not.toContain('role="alert"')
    // The only URLs are the form action and the inline icon: nothing about where it leads.
    expect([...html.matchAll(/(?:href|src|action)="([^"]*)"/g)].map((m) => m[1])).toEqual([
      'data:,',
      '/promo',
    ])
    expect(html).not.toMatch(/https?:/)
  })

  it('shows the error of the last attempt', () => {
    const { html } = passwordPage({
      alias: 'promo',
      formAction: '/promo',
      kind: 'link',
      error: 'The password is incorrect.',
    })
    expect(html).toContain('<p class="error" role="alert">The password is incorrect.</p>')
  })

  it('asks for the statistics password for kind stats', () => {
    const { html } = passwordPage({ alias: 'promo', formAction: '/promo/stats', kind: 'stats' })
    expect(html).toContain('<title>Statistics password required</title>')
    expect(html).toContain('The statistics of this link are protected by a password.')
    expect(html).toContain('action="/promo/stats"')
  })
})

describe('notice pages', () => {
  it.each([
    ['not found', notFoundPage, 'Link not found'],
    ['disabled', linkDisabledPage, 'Link disabled'],
    ['expired', linkExpiredPage, 'Link expired'],
    ['stats private', statsPrivatePage, 'Statistics private'],
  ])('%s page has its title and heading', (_name, render, title) => {
    const { html } = render()
    expect(html).toContain(`<title>${title}</title>`)
    expect(html).toContain(`<h1>${title}</h1>`)
  })

  it('says the statistics are private', () => {
    expect(statsPrivatePage().html).toContain('The statistics of this link are private.')
  })

  it('says how long to wait after too many attempts', () => {
    expect(tooManyAttemptsPage({ retryAfterSeconds: 42 }).html).toContain('try again in 42 seconds')
  })

  it.each([
    [0, '1 second'],
    [1, '1 second'],
    [1.2, '2 seconds'],
    [59, '59 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [3600, '60 minutes'],
    [Number.NaN, '1 minute'],
  ])('waitText(%d) is %j', (seconds, text) => {
    expect(waitText(seconds)).toBe(text)
  })
})

describe('preview page', () => {
  const base: PreviewPageInput = {
    shortUrl: 'http://short.test/promo',
    destination: 'https://example.com/landing?a=1&b=2',
    title: 'Example landing',
    endsAt: null,
    expirationClicks: null,
    clicks: 7,
    targeting: null,
    statsUrl: null,
    protected: false,
  }
  const render = (input: Partial<PreviewPageInput>) => previewPage({ ...base, ...input }).html

  it('shows the destination as a no-referrer, nofollow link, and the title', () => {
    const html = render({})
    expect(html).toContain(
      '<a href="https://example.com/landing?a=1&amp;b=2" rel="noopener noreferrer nofollow">https://example.com/landing?a=1&amp;b=2</a>',
    )
    expect(html).toContain('<strong>Example landing</strong>')
    expect(html).toContain('<a class="button" href="http://short.test/promo">Open the link</a>')
    expect(html).not.toContain('Statistics</a>')
    expect(html).not.toContain('Password')
  })

  it.each([
    [{}, 'Never'],
    [{ endsAt: '2030-01-02T03:04:00Z' }, 'on <time>2030-01-02T03:04:00Z</time>'],
    [{ expirationClicks: 10 }, 'after 10 clicks (3 left)'],
    [{ expirationClicks: 0 }, 'Never'],
    [{ expirationClicks: 5, clicks: 9 }, 'after 5 clicks (0 left)'],
    [
      { endsAt: '2030-01-02', expirationClicks: 10 },
      'on <time>2030-01-02</time>, or after 10 clicks (3 left)',
    ],
  ])('expiry %j reads %j', (input, text) => {
    expect(render(input)).toContain(`<dt>Expires</dt><dd>${text}</dd>`)
  })

  it('lists keyed targeting rules with safe links', () => {
    const html = render({
      targeting: {
        type: 'country',
        entries: [
          { key: 'US', value: 'https://us.example.com/' },
          { key: 'DE', value: 'javascript:alert(1)' },
        ],
      },
    })
    expect(html).toContain('By country')
    expect(html).toContain(
      '<li><code>US</code> → <a href="https://us.example.com/" rel="noopener noreferrer nofollow">',
    )
    expect(html).toContain('<li><code>DE</code> → <a href="#" rel="noopener noreferrer nofollow">')
  })

  it('explains rotation', () => {
    const html = render({
      targeting: { type: 'rotation', entries: [{ value: 'https://b.example.com/' }] },
    })
    expect(html).toContain('Rotation')
    expect(html).toContain('Visitors take turns between the destination and:')
    expect(html).toContain('<li><a href="https://b.example.com/"')
  })

  it('links to the statistics and labels a password link', () => {
    const html = render({ statsUrl: 'http://short.test/promo/stats', protected: true })
    expect(html).toContain('<a class="button secondary" href="http://short.test/promo/stats">')
    expect(html).toContain('<dt>Password</dt><dd>Required to follow the link</dd>')
  })
})
