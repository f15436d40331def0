/**
 * The label /metrics counts a visit under: a redirect to an expiry URL or a domain's not-found
 * page is counted as expired or not found, not as a bot's redirect.
 */
import { describe, expect, it } from 'vitest'
import { visitOutcome } from '../../src/edge/visit-outcome.js'
import { redirect } from '../../src/redirects/outcome.js'
import type { ClickEvent } from '../../src/clicks/event.js'

const click = {} as ClickEvent

describe('visitOutcome', () => {
  it.each([
    ['a counted redirect', redirect(302, 'https://a.example/'), click, false, 'redirected'],
    ['a HEAD request', redirect(302, 'https://a.example/'), null, true, 'redirected'],
    ['a bot', redirect(302, 'https://a.example/'), null, false, 'bot'],
    [
      'an expired link with an expiry URL',
      redirect(302, 'https://e.example/', 'expired'),
      null,
      false,
      'expired',
    ],
    [
      'an unknown alias on a domain with a not-found page',
      redirect(302, 'https://n.example/', 'not_found'),
      null,
      false,
      'not_found',
    ],
    [
      'the same, asked with HEAD',
      redirect(302, 'https://n.example/', 'not_found'),
      null,
      true,
      'not_found',
    ],
  ] as const)('%s', (_name, outcome, clicked, head, label) => {
    expect(visitOutcome({ outcome, click: clicked }, head)).toBe(label)
  })
})
