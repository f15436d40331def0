/**
 * The in-memory limit counters (limits/window-counters.ts), on a clock the test moves: however
 * many keys arrive in one window (every random bogus API key is one), the counters hold at most
 * MAX_KEYS windows, so each new key costs the same work; and at that bound the limits still
 * hold: a key at its limit stays blocked while the others fill the map, and a key in use keeps
 * its count while new keys keep arriving.
 */
import { describe, expect, it } from 'vitest'
import { CountingAttemptLimiter } from '../../src/limits/attempt-limiter.js'
import { MAX_KEYS, MemoryCounters } from '../../src/limits/window-counters.js'

const MINUTE = 60_000

function clock() {
  let now = Date.UTC(2026, 4, 1, 12)
  return { now: () => now, advance: (ms: number) => (now += ms) }
}

describe('memory counters', () => {
  it('hold at most MAX_KEYS windows when more new keys arrive within one window', () => {
    const time = clock()
    const counters = new MemoryCounters(time.now)
    let firsts = 0
    for (let i = 0; i < MAX_KEYS + 2_000; i++) {
      if (counters.incr(`api:key:${i}`, MINUTE).current === 1) firsts++
      if (i % 100 === 0) time.advance(1)
    }
    expect(firsts).toBe(MAX_KEYS + 2_000)
    expect(counters.size).toBe(MAX_KEYS)
  })

  it('keep a key at its limit blocked while other keys fill the map to its bound', async () => {
    const time = clock()
    const counters = new MemoryCounters(time.now)
    const limiter = new CountingAttemptLimiter(counters, 'passwords', 10)
    for (let i = 0; i < 10; i++) expect(await limiter.take('visitor:1')).toBe(0)
    expect(await limiter.take('visitor:1')).toBe(60)

    for (let i = 0; i < MAX_KEYS - 1; i++) counters.incr(`api:key:${i}`, MINUTE)
    expect(counters.size).toBe(MAX_KEYS)
    time.advance(30_000)
    expect(await limiter.take('visitor:1')).toBe(30)
    expect(counters.peek('passwords:visitor:1')).toEqual({ current: 12, ttl: 30_000 })

    // The window still ends when it should.
    time.advance(30_000)
    expect(await limiter.take('visitor:1')).toBe(0)
  })

  it('keep counting a key in use while new keys keep arriving at the bound', () => {
    const time = clock()
    const counters = new MemoryCounters(time.now, 1_000)
    for (let i = 0; i < 1_000; i++) counters.incr(`old:${i}`, MINUTE)
    for (let i = 0; i < 5_000; i++) {
      expect(counters.incr('api:busy', MINUTE).current).toBe(i + 1)
      counters.incr(`new:${i}`, MINUTE)
      expect(counters.size).toBeLessThanOrEqual(1_000)
    }
    expect(counters.peek('api:busy')).toEqual({ current: 5_000, ttl: MINUTE })
    // The least recently used went first: none of the keys that came before the flood is left.
    expect(counters.peek('old:999')).toEqual({ current: 0, ttl: 0 })
  })

  it('open a new window when the last one has ended, to the millisecond', () => {
    const time = clock()
    const counters = new MemoryCounters(time.now)
    expect(counters.incr('k', 1_000)).toEqual({ current: 1, ttl: 1_000 })
    time.advance(999)
    expect(counters.incr('k', 1_000)).toEqual({ current: 2, ttl: 1 })
    time.advance(1)
    expect(counters.peek('k')).toEqual({ current: 0, ttl: 0 })
    expect(counters.incr('k', 1_000)).toEqual({ current: 1, ttl: 1_000 })
  })
})
