/**
 * The statistics' own password flow (stats/password-gate.ts) over the shared gate, without
 * HTTP: who may see the page, what a right, wrong or blocked attempt answers, and that the
 * proof of one purpose never opens the other.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { CountingAttemptLimiter } from '../../src/limits/attempt-limiter.js'
import { MemoryCounters } from '../../src/limits/window-counters.js'
import { PasswordGate } from '../../src/passwords/gate.js'
import { hashPassword } from '../../src/shared/secrets.js'
import {
  StatsPasswordGate,
  WRONG_STATS_PASSWORD,
  type StatsGuardedLink,
} from '../../src/stats/password-gate.js'

const NOW = Date.UTC(2026, 4, 1, 12)
const SECRET = Buffer.alloc(32, 7)
let hash: string

beforeAll(async () => {
  hash = await hashPassword('open sesame')
})

function gates() {
  const limiter = new CountingAttemptLimiter(new MemoryCounters(() => NOW), 'passwords', 3)
  const stats = new PasswordGate('stats', limiter, SECRET, () => NOW)
  const link = new PasswordGate('link', limiter, SECRET, () => NOW)
  return { gate: new StatsPasswordGate(stats), stats, link }
}

function guarded(privacy: number, withHash = true): StatsGuardedLink {
  return {
    id: 5,
    alias: 'abc',
    shortUrl: 'https://s.example/abc',
    privacy,
    privacyPasswordHash: withHash ? hash : null,
    privacyPasswordTag: 'tag1',
  }
}

const FORM = '/abc/stats?from=2026-04-01'

describe('who may see the statistics', () => {
  it.each([
    ['public (0)', guarded(0), null],
    ['private (1)', guarded(1), { kind: 'page', status: 403, page: { page: 'stats-private' } }],
    [
      'password (2) without a stored password stays private',
      guarded(2, false),
      { kind: 'page', status: 403, page: { page: 'stats-private' } },
    ],
    [
      'password (2) asks for it',
      guarded(2),
      {
        kind: 'page',
        status: 200,
        page: { page: 'password', kind: 'stats', alias: 'abc', formAction: FORM },
      },
    ],
  ])('%s', (_name, link, expected) => {
    expect(gates().gate.refusal(link, undefined, FORM)).toEqual(expected)
  })
})

describe('a statistics password sent from the form', () => {
  it('a right one is remembered by a cookie for the statistics only, and leads back', async () => {
    const { gate, link: linkGate } = gates()
    const answer = await gate.submit('198.51.100.1', guarded(2), 'open sesame', FORM)
    expect(answer).toEqual({
      kind: 'redirect',
      status: 303,
      location: FORM,
      setCookie: expect.stringMatching(
        /^slink_st_5=\d+\.[\w-]+; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
      ),
    })
    const cookie = answer.setCookie!.split(';')[0]!
    expect(gate.refusal(guarded(2), cookie, FORM)).toBeNull()
    // The same proof under the link's cookie name opens nothing.
    const asLink = cookie.replace('slink_st_5', 'slink_pw_5')
    expect(linkGate.remembered(guarded(2), 'tag1', asLink)).toBe(false)
    // A new statistics password (another tag) forgets it.
    expect(gate.refusal({ ...guarded(2), privacyPasswordTag: 'tag2' }, cookie, FORM)).toEqual(
      expect.objectContaining({ status: 200 }),
    )
  })

  it('a wrong one shows the form again with the reason; beyond the limit, 429 without checking', async () => {
    const { gate } = gates()
    const wrong = {
      kind: 'page',
      status: 200,
      page: {
        page: 'password',
        kind: 'stats',
        alias: 'abc',
        formAction: FORM,
        error: WRONG_STATS_PASSWORD,
      },
    }
    for (const attempt of ['nope', '', 42]) {
      expect(await gate.submit('198.51.100.1', guarded(2), attempt, FORM)).toEqual(wrong)
    }
    const blocked = await gate.submit('198.51.100.1', guarded(2), 'open sesame', FORM)
    expect(blocked).toEqual({
      kind: 'page',
      status: 429,
      page: { page: 'too-many-attempts', reason: 'passwords', retryAfterSeconds: 60 },
      retryAfter: 60,
    })
    // Another visitor is not blocked.
    const other = await gate.submit('198.51.100.2', guarded(2), 'open sesame', FORM)
    expect(other).toMatchObject({ kind: 'redirect', status: 303 })
  })

  it('a link whose statistics need no password leads straight back', async () => {
    expect(await gates().gate.submit('198.51.100.1', guarded(0), 'x', FORM)).toEqual({
      kind: 'redirect',
      status: 303,
      location: FORM,
    })
  })
})
