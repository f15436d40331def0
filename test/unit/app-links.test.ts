/** App links as destinations: which are accepted, how they are normalised, and intents. */
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { destinationUrlError } from '../../src/links/destination-url.js'
import { destinationUrl } from '../../src/pages/safe-values.js'
import { compileTargeting } from '../../src/redirects/targeting/compile.js'
import { decide } from '../../src/redirects/targeting/decide.js'
import {
  DEFAULT_APP_URL_SCHEMES,
  intentFallbackUrl,
  isDestinationUrl,
  normalDestinationUrl,
} from '../../src/shared/destination-url.js'

const DEFAULTS = new Set(DEFAULT_APP_URL_SCHEMES)
const INTENT = 'intent://scan/#Intent;scheme=zxing;package=com.google.zxing.client.android;end'
const INTENT_WITH_FALLBACK =
  'intent://scan/#Intent;scheme=zxing;S.browser_fallback_url=https%3A%2F%2Ffallback.example%2Fapp;end'

describe('isDestinationUrl with the default APP_URL_SCHEMES', () => {
  it.each([
    'https://example.com/',
    'http://example.com:8080/a?b#c',
    'mailto:someone@example.com?subject=Hi',
    'MAILTO:someone@example.com',
    'tel:+15551234567',
    'sms:+15551234567?body=hello',
    'whatsapp://send?text=hello',
    'tg://resolve?domain=example',
    'spotify:track:4uLU6hMCjMI75M1A2tKUQC',
    'itms-apps://apps.apple.com/app/id123',
    'market://details?id=com.example',
    INTENT,
    'zoommtg://zoom.us/join?confno=123',
    'msteams:/l/meetup-join/x',
  ])('accepts %s', (value) => {
    expect(isDestinationUrl(value, DEFAULTS)).toBe(true)
    expect(destinationUrlError(value, 'url', DEFAULTS)).toBeNull()
  })

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    'blob:https://example.com/uuid',
    'about:blank',
    'filesystem:https://example.com/temporary/x',
    'view-source:https://example.com/',
    'ftp://example.com/',
    'slack://open',
    'mailto:',
    'mailto:a b@example.com',
    'tel:\n123',
    'example.com',
    '//example.com',
    'http:///nohost',
    '1tel:123',
    '',
  ])('refuses %j', (value) => {
    expect(isDestinationUrl(value, DEFAULTS)).toBe(false)
    expect(destinationUrlError(value, 'expiration_url', DEFAULTS)).toBe(
      'The expiration url field must be a valid URL.',
    )
  })

  it('refuses the never-allowed schemes even when the set names them', () => {
    const all = new Set(['javascript', 'data', 'file', 'vbscript', 'blob', 'about', 'filesystem'])
    for (const scheme of all) expect(isDestinationUrl(`${scheme}:x`, all)).toBe(false)
  })

  it('names the field and the bound of a destination over 2048 characters', () => {
    expect(destinationUrlError(`mailto:${'a'.repeat(2042)}`, 'rules.0.url', DEFAULTS)).toBe(
      'The rules.0.url field must not be greater than 2048 characters.',
    )
  })
})

describe('APP_URL_SCHEMES', () => {
  const schemes = (value?: string) =>
    [...loadConfig(value === undefined ? {} : { APP_URL_SCHEMES: value }).appUrlSchemes].sort()

  it.each([
    { value: undefined, out: [...DEFAULT_APP_URL_SCHEMES].sort() },
    { value: '', out: [...DEFAULT_APP_URL_SCHEMES].sort() },
    { value: 'none', out: [] },
    { value: ' Slack , mailto: ', out: ['mailto', 'slack'] },
  ])('$value → $out', ({ value, out }) => {
    expect(schemes(value)).toEqual(out)
  })

  it.each([
    ['javascript', 'APP_URL_SCHEMES cannot allow "javascript": it is never a destination'],
    ['mailto,view-source', 'APP_URL_SCHEMES cannot allow "view-source": it is never a destination'],
    ['mailto,,tel', 'APP_URL_SCHEMES must be a comma list of URL schemes, got ""'],
    ['1tel', 'APP_URL_SCHEMES must be a comma list of URL schemes, got "1tel"'],
  ])('stops the start on %j', (value, message) => {
    expect(() => loadConfig({ APP_URL_SCHEMES: value })).toThrow(message)
  })

  it('decides which app links pass', () => {
    const only = loadConfig({ APP_URL_SCHEMES: 'slack' }).appUrlSchemes
    expect(isDestinationUrl('slack://open', only)).toBe(true)
    expect(isDestinationUrl('mailto:a@example.com', only)).toBe(false)
    expect(isDestinationUrl('https://example.com/', new Set())).toBe(true)
  })
})

describe('normalising and showing destinations', () => {
  it.each([
    ['HTTPS://Example.COM', 'https://example.com/'],
    ['MAILTO:Someone@Example.com', 'mailto:Someone@Example.com'],
    [INTENT, INTENT],
    ['javascript:alert(1)', 'javascript:alert(1)'],
    ['not a url', 'not a url'],
  ])('%s is stored as %s', (value, stored) => {
    expect(normalDestinationUrl(value)).toBe(stored)
  })

  it.each([
    ['tel:+15551234567', 'tel:+15551234567'],
    ['https://example.com', 'https://example.com/'],
    ['javascript:alert(1)', null],
    ['data:text/html,x', null],
  ])('a page links %s as %s', (value, shown) => {
    expect(destinationUrl(value)).toBe(shown)
  })
})

describe('intents go to Android visitors only', () => {
  const android = { country: null, platform: 'Android' as const, languages: [] }
  const iphone = { country: null, platform: 'iOS' as const, languages: [] }
  const unknown = { country: null, platform: null, languages: [] }
  const MAIN = 'https://main.example/'
  const spec = (url: string, targetType: 0 | 2 | 4, extra = {}) => ({
    url,
    targetType,
    country: null,
    platform: null,
    language: null,
    rotation: null,
    ...extra,
  })

  it.each([
    {
      name: 'a platform rule to an intent, for Android',
      spec: spec(MAIN, 2, { platform: [{ key: 'Android', value: INTENT }] }),
      visitor: android,
      to: INTENT,
    },
    {
      name: 'a rotation entry that is an intent, for an iPhone: the main URL',
      spec: spec(MAIN, 4, { rotation: [{ value: INTENT, weight: 100 }] }),
      visitor: iphone,
      to: MAIN,
    },
    {
      name: 'the same, for an unknown platform: the main URL',
      spec: spec(MAIN, 4, { rotation: [{ value: INTENT, weight: 100 }] }),
      visitor: unknown,
      to: MAIN,
    },
    {
      name: 'the same, for Android: the intent',
      spec: spec(MAIN, 4, { rotation: [{ value: INTENT, weight: 100 }] }),
      visitor: android,
      to: INTENT,
    },
    {
      name: 'a main URL that is an intent, for Android',
      spec: spec(INTENT_WITH_FALLBACK, 0),
      visitor: android,
      to: INTENT_WITH_FALLBACK,
    },
    {
      name: 'a main URL that is an intent with a browser fallback, for an iPhone: the fallback',
      spec: spec(INTENT_WITH_FALLBACK, 0),
      visitor: iphone,
      to: 'https://fallback.example/app',
    },
    {
      name: 'a main URL that is an intent without a fallback, for an iPhone: the intent as it is',
      spec: spec(INTENT, 0),
      visitor: iphone,
      to: INTENT,
    },
    {
      name: 'other app links go to everyone',
      spec: spec('spotify:track:1', 0),
      visitor: iphone,
      to: 'spotify:track:1',
    },
  ])('$name', ({ spec, visitor, to }) => {
    expect(decide(compileTargeting(spec), visitor, 0)).toBe(to)
  })

  it('reads the fallback of an intent only when it is an http(s) URL', () => {
    expect(intentFallbackUrl(INTENT_WITH_FALLBACK)).toBe('https://fallback.example/app')
    expect(intentFallbackUrl(INTENT)).toBeNull()
    expect(
      intentFallbackUrl('intent://x#Intent;S.browser_fallback_url=javascript%3Aalert(1);end'),
    ).toBeNull()
  })

  it('marks only links with an intent (the others never read the visitor platform)', () => {
    expect(compileTargeting(spec(MAIN, 0)).offAndroid).toBeUndefined()
    expect(
      compileTargeting(spec(MAIN, 2, { platform: [{ key: 'iOS', value: INTENT }] })),
    ).toMatchObject({
      offAndroid: MAIN,
    })
  })
})
