import { describe, expect, it, vi } from 'vitest'
import { referrerHostOf, visitorContext } from '../../src/visitors/context.js'
import * as geoip from '../../src/visitors/geoip.js'
import { BOTS, BROWSERS } from './user-agent-samples.js'

vi.mock('../../src/visitors/geoip.js', { spy: true })

describe('visitor context', () => {
  it('gathers country, platform, languages, bot, browser, device and referrer host', () => {
    const visitor = visitorContext({
      ip: '::ffff:193.0.6.139',
      userAgent: BROWSERS.firefoxUbuntu,
      acceptLanguage: 'fr-CH, fr;q=0.9, de;q=0.8, *;q=0.5',
      referer: 'https://News.Example.com:8443/item?id=1',
      time: 1_780_000_000_000,
    })
    expect({
      time: visitor.time,
      country: visitor.country,
      platform: visitor.platform,
      languages: visitor.languages,
      bot: visitor.bot,
      browser: visitor.browser,
      device: visitor.device,
      referrerHost: visitor.referrerHost,
    }).toEqual({
      time: 1_780_000_000_000,
      country: 'NL',
      platform: 'Ubuntu',
      languages: ['fr', 'de'],
      bot: false,
      browser: 'Firefox',
      device: 'desktop',
      referrerHost: 'news.example.com',
    })
  })

  it('knows nothing of a visitor that sent nothing, and takes it for a bot', () => {
    const visitor = visitorContext({ ip: undefined, userAgent: undefined, acceptLanguage: null })
    expect([visitor.country, visitor.platform, visitor.languages, visitor.bot]).toEqual([
      null,
      null,
      [],
      true,
    ])
    expect([visitor.browser, visitor.device, visitor.referrerHost]).toEqual([null, 'desktop', null])
  })

  it('tells a crawler apart', () => {
    const visitor = visitorContext({ ip: '8.8.8.8', userAgent: BOTS.googlebot, acceptLanguage: '' })
    expect(visitor.bot).toBe(true)
  })

  it('looks the country up only when read, and only once', () => {
    vi.mocked(geoip.countryOf).mockClear()
    const visitor = visitorContext({
      ip: '10.0.0.1',
      userAgent: BROWSERS.chromeWindows,
      acceptLanguage: 'en',
    })
    expect(visitor.platform).toBe('Windows')
    expect(geoip.countryOf).not.toHaveBeenCalled()
    expect(visitor.country).toBeNull()
    expect(visitor.country).toBeNull()
    expect(geoip.countryOf).toHaveBeenCalledTimes(1)
  })

  it('stamps the time of the request when none is given', () => {
    const before = Date.now()
    const visitor = visitorContext({ ip: null, userAgent: null, acceptLanguage: null })
    expect(visitor.time).toBeGreaterThanOrEqual(before)
    expect(visitor.time).toBeLessThanOrEqual(Date.now())
  })
})

describe('referrer host', () => {
  it.each([
    ['https://www.google.com/', 'www.google.com'],
    ['http://t.co/abc', 't.co'],
    ['https://[2001:db8::1]:8080/x', '[2001:db8::1]'],
    ['android-app://com.slack/', null],
    ['javascript:alert(1)', null],
    ['not a url', null],
    ['', null],
    [null, null],
    [undefined, null],
    ['https://example.com/' + 'x'.repeat(5000), null],
  ])('%j → %j', (referer, host) => {
    expect(referrerHostOf(referer)).toBe(host)
  })
})
