/**
 * The attempt limiter over in-memory counters: an attempt is counted when it is taken, before
 * it is checked; a right one is given back; a window's count never goes below zero.
 */
import { describe, expect, it } from 'vitest'
import { CountingAttemptLimiter } from '../../src/limits/attempt-limiter.js'
import { MemoryCounters } from '../../src/limits/window-counters.js'

describe('CountingAttemptLimiter', () => {
  it('lets the first `max` attempts of a window through and refuses the rest with the seconds left', async () => {
    let now = 1_000_000
    const limiter = new CountingAttemptLimiter(new MemoryCounters(() => now), 'test', 3, 60_000)
    const taken = await Promise.all(Array.from({ length: 5 }, () => limiter.take('k')))
    expect(taken).toEqual([0, 0, 0, 60, 60])
    now += 59_001
    expect(await limiter.take('k')).toBe(1)
    expect(await limiter.take('other')).toBe(0)
    now += 999
    expect(await limiter.take('k')).toBe(0)
  })

  it('takes a given-back attempt off the count, never below zero', async () => {
    const counters = new MemoryCounters(() => 0)
    const limiter = new CountingAttemptLimiter(counters, 'test', 2, 60_000)
    expect(await limiter.take('k')).toBe(0)
    await limiter.giveBack('k')
    await limiter.giveBack('k')
    expect(counters.peek('test:k')).toEqual({ current: 0, ttl: 60_000 })
    expect(await limiter.take('k')).toBe(0)
    expect(await limiter.take('k')).toBe(0)
    expect(await limiter.take('k')).toBe(60)
    // Nothing to give back where no window is open.
    await limiter.giveBack('none')
    expect(counters.peek('test:none')).toEqual({ current: 0, ttl: 0 })
  })
})
