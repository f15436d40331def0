import { describe, expect, it } from 'vitest'
import type { TargetType } from '../../src/links/targeting-keys.js'
import { compileTargeting } from '../../src/redirects/targeting/compile.js'
import {
  decide,
  matchingRule,
  type TargetingVisitor,
} from '../../src/redirects/targeting/decide.js'
import {
  rotationCycleLength,
  rotationDestination,
  rotationPosition,
} from '../../src/redirects/targeting/rotation.js'
import type { TargetingSpec } from '../../src/redirects/targeting/spec.js'
import { preferredLanguages } from '../../src/visitors/languages.js'

const MAIN = 'https://main.example/'

function spec(targetType: TargetType, lists: Partial<TargetingSpec> = {}): TargetingSpec {
  return {
    url: MAIN,
    targetType,
    country: null,
    platform: null,
    language: null,
    rotation: null,
    ...lists,
  }
}

function visitor(parts: Partial<TargetingVisitor> = {}): TargetingVisitor {
  return { country: null, platform: null, languages: [], ...parts }
}

const COUNTRIES = [
  { key: 'US', value: 'https://us.example/' },
  { key: 'de', value: 'https://de.example/' },
  { key: 'XK', value: 'https://xk.example/' },
]
const PLATFORMS = [
  { key: 'iOS', value: 'https://ios.example/' },
  { key: 'Android', value: 'https://android.example/' },
  { key: 'Windows', value: 'https://windows.example/' },
  { key: 'OS X', value: 'https://mac.example/' },
  { key: 'Chrome OS', value: 'https://chromeos.example/' },
  { key: 'Linux', value: 'https://linux.example/' },
]
const LINUX_THEN_UBUNTU = [
  { key: 'Linux', value: 'https://linux.example/' },
  { key: 'Ubuntu', value: 'https://ubuntu.example/' },
]
const LANGUAGES = [
  { key: 'de', value: 'https://de.example/' },
  { key: 'FR', value: 'https://fr.example/' },
]
const EVERYTHING = {
  country: COUNTRIES,
  platform: PLATFORMS,
  language: LANGUAGES,
  rotation: [{ value: 'https://r1.example/' }],
}
const everyone = visitor({ country: 'US', platform: 'iOS', languages: ['de'] })

const table: { name: string; spec: TargetingSpec; visitor: TargetingVisitor; to: string }[] = [
  // 0: none
  {
    name: 'type 0 ignores every stored list',
    spec: spec(0, EVERYTHING),
    visitor: everyone,
    to: MAIN,
  },
  // 1: country
  {
    name: 'country rule matches',
    spec: spec(1, { country: COUNTRIES }),
    visitor: visitor({ country: 'US' }),
    to: 'https://us.example/',
  },
  {
    name: 'stored lower-case country key matches',
    spec: spec(1, { country: COUNTRIES }),
    visitor: visitor({ country: 'DE' }),
    to: 'https://de.example/',
  },
  {
    name: 'Kosovo (XK) can be targeted',
    spec: spec(1, { country: COUNTRIES }),
    visitor: visitor({ country: 'XK' }),
    to: 'https://xk.example/',
  },
  {
    name: 'country without a rule keeps url',
    spec: spec(1, { country: COUNTRIES }),
    visitor: visitor({ country: 'FR' }),
    to: MAIN,
  },
  {
    name: 'unknown country keeps url',
    spec: spec(1, { country: COUNTRIES }),
    visitor: visitor(),
    to: MAIN,
  },
  {
    name: 'country type reads only the country list',
    spec: spec(1, { ...EVERYTHING, country: null }),
    visitor: everyone,
    to: MAIN,
  },
  {
    name: 'country type with an empty list keeps url',
    spec: spec(1, { country: [] }),
    visitor: everyone,
    to: MAIN,
  },
  // 2: platform
  ...PLATFORMS.map(({ key, value }) => ({
    name: `${key} rule matches ${key}`,
    spec: spec(2, { platform: PLATFORMS }),
    visitor: visitor({ platform: key as TargetingVisitor['platform'] }),
    to: value,
  })),
  {
    name: 'Ubuntu falls back to a Linux rule',
    spec: spec(2, { platform: PLATFORMS }),
    visitor: visitor({ platform: 'Ubuntu' }),
    to: 'https://linux.example/',
  },
  {
    name: 'an exact Ubuntu rule wins over a Linux rule listed first',
    spec: spec(2, { platform: LINUX_THEN_UBUNTU }),
    visitor: visitor({ platform: 'Ubuntu' }),
    to: 'https://ubuntu.example/',
  },
  {
    name: 'Linux does not fall back to an Ubuntu rule',
    spec: spec(2, { platform: [LINUX_THEN_UBUNTU[1]!] }),
    visitor: visitor({ platform: 'Linux' }),
    to: MAIN,
  },
  {
    name: 'Android is not Linux',
    spec: spec(2, { platform: [LINUX_THEN_UBUNTU[0]!] }),
    visitor: visitor({ platform: 'Android' }),
    to: MAIN,
  },
  {
    name: 'Chrome OS is not Linux',
    spec: spec(2, { platform: [LINUX_THEN_UBUNTU[0]!] }),
    visitor: visitor({ platform: 'Chrome OS' }),
    to: MAIN,
  },
  {
    name: 'Ubuntu with neither rule keeps url',
    spec: spec(2, { platform: PLATFORMS.slice(0, 2) }),
    visitor: visitor({ platform: 'Ubuntu' }),
    to: MAIN,
  },
  {
    name: 'unknown platform keeps url',
    spec: spec(2, { platform: PLATFORMS }),
    visitor: visitor(),
    to: MAIN,
  },
  { name: 'platform type with a null list keeps url', spec: spec(2), visitor: everyone, to: MAIN },
  // 3: language
  {
    name: 'visitor preferring fr then de gets fr, though the link lists de first',
    spec: spec(3, { language: LANGUAGES }),
    visitor: visitor({ languages: ['fr', 'de'] }),
    to: 'https://fr.example/',
  },
  {
    name: 'visitor preferring de then fr gets de',
    spec: spec(3, { language: LANGUAGES }),
    visitor: visitor({ languages: ['de', 'fr'] }),
    to: 'https://de.example/',
  },
  {
    name: 'the first visitor language with a rule wins',
    spec: spec(3, { language: LANGUAGES }),
    visitor: visitor({ languages: ['it', 'es', 'de'] }),
    to: 'https://de.example/',
  },
  {
    name: 'no visitor language with a rule keeps url',
    spec: spec(3, { language: LANGUAGES }),
    visitor: visitor({ languages: ['it', 'es'] }),
    to: MAIN,
  },
  {
    name: 'no visitor languages keeps url',
    spec: spec(3, { language: LANGUAGES }),
    visitor: visitor(),
    to: MAIN,
  },
  {
    name: 'q-values order the header (fr-CH at q=1 beats de at q=0.5)',
    spec: spec(3, { language: LANGUAGES }),
    visitor: visitor({ languages: preferredLanguages('de;q=0.5, fr-CH, en;q=0.1') }),
    to: 'https://fr.example/',
  },
  {
    name: 'de-DE matches a de rule',
    spec: spec(3, { language: LANGUAGES }),
    visitor: visitor({ languages: preferredLanguages('de-DE,en;q=0.9') }),
    to: 'https://de.example/',
  },
  {
    name: 'a q=0 language never matches',
    spec: spec(3, { language: LANGUAGES }),
    visitor: visitor({ languages: preferredLanguages('en, fr;q=0') }),
    to: MAIN,
  },
  {
    name: 'language type with an empty list keeps url',
    spec: spec(3, { language: [] }),
    visitor: everyone,
    to: MAIN,
  },
  // 4: rotation (counter 0 is the main URL)
  { name: 'rotation ignores the visitor', spec: spec(4, EVERYTHING), visitor: everyone, to: MAIN },
  {
    name: 'rotation with a null list keeps url',
    spec: spec(4, { ...EVERYTHING, rotation: null }),
    visitor: everyone,
    to: MAIN,
  },
  // anything else
  {
    name: 'an unknown target type keeps url',
    spec: spec(Number('7') as TargetType, EVERYTHING),
    visitor: everyone,
    to: MAIN,
  },
]

describe('targeting decision', () => {
  it.each(table)('$name', ({ spec, visitor, to }) => {
    expect(decide(compileTargeting(spec), visitor, 0)).toBe(to)
  })

  it('reads only the part of the visitor its rules need', () => {
    const only = (part: keyof TargetingVisitor, value: unknown): TargetingVisitor => {
      const trap = (name: string) => () => {
        throw new Error(`read ${name}`)
      }
      return Object.defineProperties({} as TargetingVisitor, {
        country: { get: part === 'country' ? () => value : trap('country') },
        platform: { get: part === 'platform' ? () => value : trap('platform') },
        languages: { get: part === 'languages' ? () => value : trap('languages') },
      })
    }
    expect(decide(compileTargeting(spec(1, EVERYTHING)), only('country', 'US'), 0)).toBe(
      'https://us.example/',
    )
    expect(decide(compileTargeting(spec(2, EVERYTHING)), only('platform', 'iOS'), 0)).toBe(
      'https://ios.example/',
    )
    expect(decide(compileTargeting(spec(3, EVERYTHING)), only('languages', ['fr']), 0)).toBe(
      'https://fr.example/',
    )
    expect(decide(compileTargeting(spec(4, EVERYTHING)), only('country', null), 1)).toBe(
      'https://r1.example/',
    )
    expect(decide(compileTargeting(spec(0, EVERYTHING)), only('country', null), 0)).toBe(MAIN)
  })

  it('names the rule that decided', () => {
    const compiled = compileTargeting(spec(2, { platform: LINUX_THEN_UBUNTU }))
    expect(matchingRule(compiled, visitor({ platform: 'Ubuntu' }))).toEqual({
      kind: 'platform',
      platform: 'Ubuntu',
      destination: 'https://ubuntu.example/',
    })
    expect(matchingRule(compiled, visitor({ platform: 'iOS' }))).toBeNull()
  })
})

describe('compiling targeting', () => {
  it('keeps the active list as typed rules in link order, keys normalised', () => {
    expect(compileTargeting(spec(3, { language: LANGUAGES }))).toMatchObject({
      kind: 'language',
      url: MAIN,
      rules: [
        { kind: 'language', language: 'de', destination: 'https://de.example/' },
        { kind: 'language', language: 'fr', destination: 'https://fr.example/' },
      ],
    })
    const platforms = compileTargeting(
      spec(2, { platform: [{ key: 'os x', value: 'https://m.example/' }] }),
    )
    expect(platforms).toMatchObject({ kind: 'platform', rules: [{ platform: 'OS X' }] })
  })

  it('drops unusable entries and keeps the first of a repeated key', () => {
    const compiled = compileTargeting(
      spec(1, {
        country: [
          { key: 'USA', value: 'https://usa.example/' },
          { key: '', value: 'https://empty.example/' },
          { key: 'FR', value: '' },
          { key: 'ca', value: 'https://ca1.example/' },
          { key: 'CA', value: 'https://ca2.example/' },
          JSON.parse('{"value":"https://no-key.example/"}') as { key: string; value: string },
          JSON.parse('{"key":"GB","value":null}') as { key: string; value: string },
        ],
      }),
    )
    expect(compiled).toMatchObject({
      kind: 'country',
      rules: [{ country: 'CA', destination: 'https://ca1.example/' }],
    })
    expect(
      compileTargeting(spec(2, { platform: [{ key: 'Windows 11', value: 'https://w.example/' }] })),
    ).toEqual({ kind: 'none', url: MAIN })
  })

  it('compiles an inactive or empty list to no targeting at all', () => {
    expect(compileTargeting(spec(0, EVERYTHING))).toEqual({ kind: 'none', url: MAIN })
    expect(compileTargeting(spec(1))).toEqual({ kind: 'none', url: MAIN })
    expect(compileTargeting(spec(3, { language: [] }))).toEqual({ kind: 'none', url: MAIN })
    expect(compileTargeting(spec(4, { rotation: [] }))).toEqual({ kind: 'none', url: MAIN })
    expect(compileTargeting(spec(4, { rotation: [{ value: '' }] }))).toEqual({
      kind: 'none',
      url: MAIN,
    })
  })

  it('leaves the stored spec untouched and gives the same result every time', () => {
    const stored = Object.freeze(
      spec(2, { platform: Object.freeze(PLATFORMS.map((e) => Object.freeze({ ...e }))) }),
    )
    expect(compileTargeting(stored)).toEqual(compileTargeting(stored))
  })
})

describe('rotation', () => {
  const ROTATION = ['https://r1.example/', 'https://r2.example/', 'https://r3.example/']
  const compiled = compileTargeting(spec(4, { rotation: ROTATION.map((value) => ({ value })) }))
  const cycle = [MAIN, ...ROTATION]

  it('has a position for the main URL and for each entry', () => {
    expect(rotationCycleLength(3)).toBe(4)
    expect(rotationCycleLength(0)).toBe(1)
    expect(compiled).toEqual({ kind: 'rotation', url: MAIN, cycle })
  })

  it.each([
    [0, MAIN],
    [1, ROTATION[0]],
    [2, ROTATION[1]],
    [3, ROTATION[2]],
    [4, MAIN],
    [5, ROTATION[0]],
    [4_000_000_002, ROTATION[1]],
    [Number.MAX_SAFE_INTEGER, ROTATION[2]], // 2^53 - 1 ≡ 3 (mod 4)
    [2 ** 60, MAIN],
    [2 ** 60 + 2 ** 10 + 1, MAIN], // not exact past 2^53: rounds to a multiple of 4
    [-1, ROTATION[2]],
    [-4, MAIN],
    [2.9, ROTATION[1]],
    [-0, MAIN],
    [Number.NaN, MAIN],
    [Number.POSITIVE_INFINITY, MAIN],
    [2n ** 64n + 1n, ROTATION[0]],
    [-5n, ROTATION[2]],
  ] as const)('counter %s → %s', (counter, destination) => {
    expect(decide(compiled, visitor(), counter)).toBe(destination)
  })

  it('cycles round-robin over the main URL and every entry', () => {
    const seen = Array.from({ length: 12 }, (_, counter) => decide(compiled, visitor(), counter))
    expect(seen).toEqual([...cycle, ...cycle, ...cycle])
  })

  it('maps any counter into the cycle', () => {
    expect(rotationPosition(7, 1)).toBe(0)
    expect(rotationPosition(7, 0)).toBe(0)
    expect(rotationPosition(-0.5, 3)).toBe(0)
    expect(rotationDestination([MAIN], 123)).toBe(MAIN)
    expect(() => rotationDestination([], 0)).toThrow(RangeError)
  })
})
