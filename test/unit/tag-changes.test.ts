/** One tag added to a link's names or taken off them (the dashboard's bulk tag actions). */
import { describe, expect, it } from 'vitest'
import { retagged, type TagChange } from '../../src/tags/names.js'

describe('retagged', () => {
  const cases: [string, string[], TagChange, string[] | null][] = [
    ['adds a name the link lacks, trimmed, at the end', ['b'], { add: '  a ' }, ['b', 'a']],
    ['changes nothing when the link has it, ignoring case', ['Sale'], { add: 'SALE' }, null],
    ['adds to a link with no tags', [], { add: 'x' }, ['x']],
    ['takes a name off ignoring case and spaces', ['Sale', 'b'], { remove: ' sale ' }, ['b']],
    ['changes nothing when the link lacks it', ['b'], { remove: 'Sale' }, null],
    [
      'may go past 25 (the caller refuses that)',
      Array.from({ length: 25 }, (_, i) => `t${i}`),
      { add: 'one more' },
      [...Array.from({ length: 25 }, (_, i) => `t${i}`), 'one more'],
    ],
  ]
  it.each(cases)('%s', (_, names, change, expected) => {
    expect(retagged(names, change)).toEqual(expected)
  })
})
