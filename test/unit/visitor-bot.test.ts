import { describe, expect, it } from 'vitest'
import { isBot } from '../../src/visitors/bot.js'
import { BOTS, BROWSERS } from './user-agent-samples.js'

describe('bot detection', () => {
  it.each(Object.entries(BOTS))('%s is a bot (main URL, not counted)', (_name, ua) => {
    expect(isBot(ua)).toBe(true)
  })

  it.each(Object.entries(BROWSERS))('%s is a person', (_name, ua) => {
    expect(isBot(ua)).toBe(false)
  })

  it.each([undefined, null, '', '   '])('a missing or blank User-Agent (%j) is a bot', (ua) => {
    expect(isBot(ua)).toBe(true)
  })

  it('reads only the first 512 characters', () => {
    expect(isBot(BROWSERS.chromeWindows + ' '.repeat(600) + 'Googlebot/2.1')).toBe(false)
    expect(isBot(BOTS.googlebot + ' '.repeat(1_000_000))).toBe(true)
  })
})
