/** Redirect rules: compiled once, then a pure decision of (rules, visitor, query), table-tested. */
import { describe, expect, it } from 'vitest'
import type { StoredRule } from '../../src/links/redirect-rules.js'
import { ruleWords } from '../../src/links/rule-words.js'
import {
  compileRules,
  firstRuleUrl,
  NO_RULES,
  type RuleVisitor,
} from '../../src/redirects/targeting/compiled-rules.js'

const AT = Date.parse('2026-05-01T10:00:00Z')

function visitor(parts: Partial<RuleVisitor> = {}): RuleVisitor {
  return {
    time: AT,
    country: null,
    region: null,
    regionCode: null,
    platform: null,
    device: 'desktop',
    browser: null,
    languages: [],
    ...parts,
  }
}

const same = (url: string) => url
const rule = (url: string, ...conditions: StoredRule['conditions']): StoredRule => ({
  conditions,
  url,
})
const decideOne = (r: StoredRule, v: RuleVisitor, query = '') =>
  firstRuleUrl(compileRules([r], same), v, query)

const HIT = 'https://hit.example/'

describe('each condition type', () => {
  it.each<[string, StoredRule['conditions'][number], Partial<RuleVisitor>, string, boolean]>([
    ['country holds', { type: 'country', value: 'FR' }, { country: 'FR' }, '', true],
    ['country differs', { type: 'country', value: 'FR' }, { country: 'DE' }, '', false],
    ['country unknown', { type: 'country', value: 'FR' }, {}, '', false],
    ['region by code', { type: 'region', value: 'US-CA' }, { regionCode: 'US-CA' }, '', true],
    [
      'region by code, another code',
      { type: 'region', value: 'US-CA' },
      { regionCode: 'ES-CA', region: 'Catalonia' },
      '',
      false,
    ],
    [
      'region by code, the data has names only',
      { type: 'region', value: 'US-CA' },
      { region: 'California', country: 'US' },
      '',
      false,
    ],
    [
      'region by name, any case',
      { type: 'region', value: 'California' },
      { region: 'california', country: 'US' },
      '',
      true,
    ],
    [
      'region by name, another region',
      { type: 'region', value: 'California' },
      { region: 'Bavaria', regionCode: 'DE-BY' },
      '',
      false,
    ],
    ['region unknown', { type: 'region', value: 'US-CA' }, { country: 'US' }, '', false],
    ['platform holds', { type: 'platform', value: 'iOS' }, { platform: 'iOS' }, '', true],
    ['platform differs', { type: 'platform', value: 'iOS' }, { platform: 'Android' }, '', false],
    [
      'Linux holds for Ubuntu',
      { type: 'platform', value: 'Linux' },
      { platform: 'Ubuntu' },
      '',
      true,
    ],
    [
      'Ubuntu not for Linux',
      { type: 'platform', value: 'Ubuntu' },
      { platform: 'Linux' },
      '',
      false,
    ],
    ['device holds', { type: 'device', value: 'mobile' }, { device: 'mobile' }, '', true],
    ['device differs', { type: 'device', value: 'tablet' }, { device: 'mobile' }, '', false],
    ['browser, any case', { type: 'browser', value: 'chrome' }, { browser: 'Chrome' }, '', true],
    ['browser differs', { type: 'browser', value: 'Firefox' }, { browser: 'Chrome' }, '', false],
    ['browser unknown', { type: 'browser', value: 'Firefox' }, {}, '', false],
    ['language first', { type: 'language', value: 'de' }, { languages: ['de', 'en'] }, '', true],
    ['language later', { type: 'language', value: 'en' }, { languages: ['de', 'en'] }, '', true],
    ['language absent', { type: 'language', value: 'fr' }, { languages: ['de'] }, '', false],
    ['before, earlier', { type: 'before', value: '2026-05-01T10:00:00.001000Z' }, {}, '', true],
    [
      'before, at the instant',
      { type: 'before', value: '2026-05-01T10:00:00.000000Z' },
      {},
      '',
      false,
    ],
    [
      'after, at the instant',
      { type: 'after', value: '2026-05-01T10:00:00.000000Z' },
      {},
      '',
      true,
    ],
    ['after, earlier', { type: 'after', value: '2026-05-01T10:00:00.001000Z' }, {}, '', false],
    ['query key present', { type: 'query', key: 'ref' }, {}, 'ref=', true],
    ['query key present, no =', { type: 'query', key: 'ref' }, {}, 'a=1&ref', true],
    ['query key absent', { type: 'query', key: 'ref' }, {}, 'other=1', false],
    ['query value equal', { type: 'query', key: 'ref', value: 'mail' }, {}, 'ref=mail', true],
    ['query value decoded', { type: 'query', key: 'q', value: 'a b' }, {}, 'q=a+b', true],
    ['query any of repeated', { type: 'query', key: 'ref', value: 'b' }, {}, 'ref=a&ref=b', true],
    ['query value differs', { type: 'query', key: 'ref', value: 'mail' }, {}, 'ref=Mail', false],
    ['query, no query', { type: 'query', key: 'ref' }, {}, '', false],
  ])('%s', (_, condition, parts, query, holds) => {
    expect(decideOne(rule(HIT, condition), visitor(parts), query)).toBe(holds ? HIT : null)
  })
})

describe('the first rule whose conditions all hold', () => {
  const rules = compileRules(
    [
      rule(
        'https://fr-mobile.example/',
        { type: 'country', value: 'FR' },
        { type: 'device', value: 'mobile' },
      ),
      rule('https://fr.example/', { type: 'country', value: 'FR' }),
      rule('https://campaign.example/', { type: 'query', key: 'c', value: 'x' }),
    ],
    same,
  )
  it.each<[string, Partial<RuleVisitor>, string, string | null]>([
    ['all of the first', { country: 'FR', device: 'mobile' }, '', 'https://fr-mobile.example/'],
    ['part of the first: the second', { country: 'FR' }, '', 'https://fr.example/'],
    ['the earlier rule wins', { country: 'FR' }, 'c=x', 'https://fr.example/'],
    ['only the third', { country: 'DE' }, 'c=x', 'https://campaign.example/'],
    ['none', { country: 'DE', device: 'mobile' }, 'c=y', null],
  ])('%s', (_, parts, query, expected) => {
    expect(firstRuleUrl(rules, visitor(parts), query)).toBe(expected)
  })
})

describe('compiling', () => {
  it('no rules, an empty list: the shared empty list', () => {
    expect(compileRules(null, same)).toBe(NO_RULES)
    expect(compileRules([], same)).toBe(NO_RULES)
  })

  it('puts each URL in href form once', () => {
    const compiled = compileRules(
      [rule('HTTPS://Example.COM', { type: 'device', value: 'mobile' })],
      (u) => new URL(u).href,
    )
    expect(compiled[0]!.url).toBe('https://example.com/')
  })

  it('leaves out a stored rule it cannot read, never throwing', () => {
    const broken = [
      { conditions: [{ type: 'planet', value: 'Mars' }], url: 'https://a.example/' },
      { conditions: [{ type: 'platform', value: 'BeOS' }], url: 'https://b.example/' },
      { conditions: [{ type: 'before', value: 'soon' }], url: 'https://c.example/' },
      { conditions: [{ type: 'query' }], url: 'https://d.example/' },
      { conditions: [{ type: 'country' }], url: 'https://e.example/' },
      { conditions: [], url: 'https://f.example/' },
      { conditions: 'x', url: 'https://g.example/' },
      null,
      rule('https://ok.example/', { type: 'device', value: 'desktop' }),
    ] as unknown as StoredRule[]
    const compiled = compileRules(broken, same)
    expect(compiled.map((r) => r.url)).toEqual(['https://ok.example/'])
  })

  it('tests the cheap conditions first: a failing time condition reads no browser', () => {
    const compiled = compileRules(
      [
        rule(
          HIT,
          { type: 'browser', value: 'Chrome' },
          { type: 'before', value: '2000-01-01T00:00:00Z' },
        ),
      ],
      same,
    )
    let reads = 0
    const v = visitor()
    const counting = Object.defineProperty({ ...v }, 'browser', {
      get: () => (reads++, 'Chrome'),
    }) as RuleVisitor
    expect(firstRuleUrl(compiled, counting, '')).toBeNull()
    expect(reads).toBe(0)
  })
})

describe('rules in words', () => {
  it('says each condition', () => {
    expect(
      ruleWords([
        { type: 'country', value: 'FR' },
        { type: 'device', value: 'mobile' },
        { type: 'after', value: '2026-05-01T10:00:00.000000Z' },
        { type: 'query', key: 'ref' },
        { type: 'query', key: 'c', value: 'x' },
      ]),
    ).toBe(
      'If country is FR and device is mobile and after 2026-05-01T10:00:00.000000Z and query has ref and query c is x',
    )
  })
})
