/** Weighted rotation: the smooth weighted round-robin cycle and the visit → destination rule. */
import { describe, expect, it } from 'vitest'
import type { RotationEntry } from '../../src/db/types.js'
import { rotationEntries } from '../../src/links/rotation-list.js'
import { compileTargeting } from '../../src/redirects/targeting/compile.js'
import { decide } from '../../src/redirects/targeting/decide.js'
import { weightedCycle } from '../../src/redirects/targeting/weighted-cycle.js'
import { FieldErrors } from '../../src/shared/errors.js'

const MAIN = 'https://main.example/'
const anyone = { country: null, platform: null, languages: [] }

function rotation(entries: RotationEntry[]) {
  return compileTargeting({
    url: MAIN,
    targetType: 4,
    country: null,
    platform: null,
    language: null,
    rotation: entries,
  })
}

/** The destinations of visits `from` to `from + count - 1`. */
function visits(entries: RotationEntry[], from: number, count: number): string[] {
  const compiled = rotation(entries)
  return Array.from({ length: count }, (_, i) => decide(compiled, anyone, from + i))
}

function tally(list: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const item of list) out[item] = (out[item] ?? 0) + 1
  return out
}

describe('weightedCycle (smooth weighted round-robin)', () => {
  it.each([
    { weights: { a: 5, b: 1, c: 1 }, cycle: 'aabacaa' },
    { weights: { a: 1, b: 1 }, cycle: 'ab' },
    { weights: { a: 2, b: 1 }, cycle: 'aba' },
    { weights: { a: 3, b: 2 }, cycle: 'ababa' },
    { weights: { a: 1, b: 0, c: 1 }, cycle: 'ac' },
    { weights: { a: 0 }, cycle: '' },
    { weights: {}, cycle: '' },
  ])('$weights → "$cycle"', ({ weights, cycle }) => {
    const entries = Object.entries(weights).map(([item, weight]) => ({ item, weight }))
    expect(weightedCycle(entries).join('')).toBe(cycle)
  })

  it('gives each item exactly its weight in the cycle, never more than its share in a row', () => {
    const cycle = weightedCycle([
      { item: 'a', weight: 50 },
      { item: 'b', weight: 30 },
      { item: 'c', weight: 20 },
    ])
    expect(cycle).toHaveLength(100)
    expect(tally(cycle)).toEqual({ a: 50, b: 30, c: 20 })
    expect(cycle.join('')).not.toMatch(/aaa|bb|cc/)
  })
})

describe('a weighted rotation link: visit n → destination', () => {
  const R = (n: number) => `https://r${n}.example/`

  it.each([
    {
      name: '30 + 20: the main URL gets the other 50',
      entries: [
        { value: R(1), weight: 30 },
        { value: R(2), weight: 20 },
      ],
      shares: { [MAIN]: 50, [R(1)]: 30, [R(2)]: 20 },
    },
    {
      name: 'weights adding up to 100 leave the main URL out',
      entries: [
        { value: R(1), weight: 60 },
        { value: R(2), weight: 40 },
      ],
      shares: { [R(1)]: 60, [R(2)]: 40 },
    },
    {
      name: 'one entry of weight 1',
      entries: [{ value: R(1), weight: 1 }],
      shares: { [MAIN]: 99, [R(1)]: 1 },
    },
    {
      name: 'the same destination twice adds up',
      entries: [
        { value: R(1), weight: 10 },
        { value: R(1), weight: 15 },
      ],
      shares: { [MAIN]: 75, [R(1)]: 25 },
    },
  ])('$name, exactly, in any 100 consecutive visits', ({ entries, shares }) => {
    for (const from of [0, 1, 37, 99, 100, 12_345, 2 ** 40 + 3])
      expect(tally(visits(entries, from, 100))).toEqual(shares)
  })

  it('spreads the visits evenly: 50/50 alternates, the main URL first', () => {
    expect(visits([{ value: R(1), weight: 50 }], 0, 6)).toEqual([
      MAIN,
      R(1),
      MAIN,
      R(1),
      MAIN,
      R(1),
    ])
  })

  it('is a pure function of the counter: visit n and visit n + 100 go to the same place', () => {
    const entries = [
      { value: R(1), weight: 33 },
      { value: R(2), weight: 7 },
    ]
    expect(visits(entries, 100, 100)).toEqual(visits(entries, 0, 100))
    expect(visits(entries, 250, 1)).toEqual(visits(entries, 50, 1))
  })

  it.each([
    { name: 'no weights: round-robin over the main URL and the entries', weight: undefined },
    { name: 'a stored list with a weight missing: round-robin', weight: 'partly' as const },
  ])('$name', ({ weight }) => {
    const entries: RotationEntry[] =
      weight === undefined
        ? [{ value: R(1) }, { value: R(2) }]
        : [{ value: R(1), weight: 40 }, { value: R(2) }]
    expect(visits(entries, 0, 6)).toEqual([MAIN, R(1), R(2), MAIN, R(1), R(2)])
  })

  it('has a cycle of 100 positions when weighted, the counter taken modulo 100', () => {
    const compiled = rotation([{ value: R(1), weight: 30 }])
    expect(compiled.kind === 'rotation' && compiled.cycle.length).toBe(100)
  })
})

describe('rotationEntries (the rotation list as stored)', () => {
  const V = 'https://v.example/'
  it.each([
    { name: 'values only', raw: [{ value: V }, { value: null }], out: [{ value: V }], errors: {} },
    {
      name: 'weights on every entry',
      raw: [
        { value: V, weight: 30 },
        { value: V, weight: 70 },
      ],
      out: [
        { value: V, weight: 30 },
        { value: V, weight: 70 },
      ],
      errors: {},
    },
    {
      name: 'an empty entry is dropped, also beside weights',
      raw: [{ value: V, weight: 30 }, { value: null, weight: null }, {}],
      out: [{ value: V, weight: 30 }],
      errors: {},
    },
    {
      name: 'a weight missing beside given ones',
      raw: [{ value: V, weight: 30 }, { value: V }],
      out: [{ value: V, weight: 30 }],
      errors: {
        'rotation.1.weight': [
          'The rotation.1.weight field is required when any rotation entry has a weight.',
        ],
      },
    },
    {
      name: 'a weight without a destination',
      raw: [{ value: V, weight: 30 }, { weight: 20 }],
      out: [{ value: V, weight: 30 }],
      errors: { 'rotation.1.value': ['The rotation.1.value field is required.'] },
    },
    {
      name: 'weights over 100',
      raw: [
        { value: V, weight: 60 },
        { value: V, weight: 41 },
      ],
      out: [
        { value: V, weight: 60 },
        { value: V, weight: 41 },
      ],
      errors: {
        rotation: ['The rotation weights must add up to at most 100; they add up to 101.'],
      },
    },
    { name: 'nothing left', raw: [{}, undefined], out: null, errors: {} },
  ])('$name', ({ raw, out, errors }) => {
    const found = new FieldErrors()
    expect(rotationEntries(raw, found)).toEqual(out)
    expect(found.messages).toEqual(errors)
  })

  it('does not add up weights when one of them already failed validation', () => {
    const found = new FieldErrors()
    found.add('rotation.1.weight', 'The rotation.1.weight field must not be greater than 100.')
    rotationEntries(
      [{ value: 'https://v.example/', weight: 90 }, { value: 'https://w.example/' }],
      found,
    )
    expect(Object.keys(found.messages)).toEqual(['rotation.1.weight'])
  })
})
