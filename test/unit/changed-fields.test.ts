/** The fields a `*.updated` event names as changed (events/types.ts). */
import { describe, expect, it } from 'vitest'
import { changedFields } from '../../src/events/types.js'

describe('changedFields', () => {
  it('names the fields whose value differs, the write time aside', () => {
    const before = { id: 1, title: 'Old', clicks: 3, disabled: false, updated_at: 'a', space: null }
    const after = { id: 1, title: 'New', clicks: 3, disabled: true, updated_at: 'b', space: null }
    expect(changedFields(before, after)).toEqual(['title', 'disabled'])
  })

  it('compares objects and lists by their content, not by identity', () => {
    const before = {
      domain: { id: 2, name: 'go.test' },
      country_target: [{ key: 'DE', value: 'https://de.test' }],
      pixels: [1, 2],
    }
    const same = structuredClone(before)
    expect(changedFields(before, same)).toEqual([])
    const after = {
      domain: { id: 2, name: 'go.test' },
      country_target: [{ key: 'DE', value: 'https://de.example' }],
      pixels: [2, 1],
    }
    expect(changedFields(before, after)).toEqual(['country_target', 'pixels'])
  })

  it('tells null, a missing value, an empty list and a string apart', () => {
    const before: Record<string, unknown> = { a: null, b: [], c: '1', d: 1, e: null, f: {} }
    const after: Record<string, unknown> = { a: [], b: null, c: 1, d: '1', e: undefined, f: null }
    expect(changedFields(before, after)).toEqual(['a', 'b', 'c', 'd', 'e', 'f'])
  })
})
