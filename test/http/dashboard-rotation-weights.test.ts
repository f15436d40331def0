/**
 * The link form's rotation weights without JavaScript: a weight field on each rotation row, the
 * destination URL's share said under the rows, weights saved, shown back and refused with the
 * API's rules in people's words; an app link as the destination.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { expectStatus, show } from './helpers.js'

function encode(pairs: [string, string | number][]): string {
  return pairs
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&')
}

function inputValue(html: string, name: string): string | null {
  const escapedName = name.replace(/[[\]]/g, '\\$&')
  const tag = new RegExp(`<input[^>]*name="${escapedName}"[^>]*>`).exec(html)?.[0]
  if (!tag) return null
  return /value="([^"]*)"/.exec(tag)?.[1] ?? ''
}

const share = (html: string) =>
  /<p class="muted small" id="rotation-share" aria-live="polite">([^<]*)<\/p>/.exec(html)?.[1]

describe('dashboard rotation weights', () => {
  let t: TestApp
  let alice: FormClient
  let csrf: string

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
  })
  afterAll(() => t.close())
  beforeEach(async () => {
    csrf = csrfOf((await alice.get('/dashboard/links/new')).body)
  })

  const form = (extra: [string, string | number][]) =>
    encode([
      ['_csrf', csrf],
      ['url', 'https://example.com/main'],
      ['domain_id', t.defaultDomainId],
      ['alias', ''],
      ['disabled', '0'],
      ['privacy', '0'],
      ['target_type', '4'],
      ...extra,
    ])

  it('shows a weight field on each rotation row and says how visitors take turns', async () => {
    const res = await alice.get('/dashboard/links/new')
    expectStatus(res, 200)
    expect(inputValue(res.body, 'rotation[0][weight]')).toBe('')
    expect(res.body).toContain('<label for="rotation-0-weight">Weight 1</label>')
    expect(share(res.body)).toBe(
      'Without weights, visitors take turns: the destination URL, then each row.',
    )
  })

  it('saves weights, shows them back with the destination URL’s share', async () => {
    const res = await alice.post(
      '/dashboard/links/new',
      form([
        ['rotation[0][value]', 'https://a.example.com/'],
        ['rotation[0][weight]', '30'],
        ['rotation[1][value]', 'https://b.example.com/'],
        ['rotation[1][weight]', '20'],
      ]),
    )
    expectStatus(res, 303)
    const id = Number(/\/dashboard\/links\/(\d+)\?/.exec(res.headers.location ?? '')![1])
    expect((await show(t, `links/${id}`)).rotation_target).toEqual([
      { value: 'https://a.example.com/', weight: 30 },
      { value: 'https://b.example.com/', weight: 20 },
    ])
    const page = await alice.get(res.headers.location!)
    expect(inputValue(page.body, 'rotation[1][weight]')).toBe('20')
    expect(share(page.body)).toBe('The destination URL gets the other 50 of every 100 visits.')
  })

  it('keeps typed weights when a row is added, and says the new share', async () => {
    const res = await alice.post(
      '/dashboard/links/new',
      form([
        ['rotation[0][value]', 'https://a.example.com/'],
        ['rotation[0][weight]', '70'],
        ['_action', 'add_rotation'],
      ]),
    )
    expectStatus(res, 200)
    expect(inputValue(res.body, 'rotation[0][weight]')).toBe('70')
    expect(inputValue(res.body, 'rotation[1][weight]')).toBe('')
    expect(share(res.body)).toBe('The destination URL gets the other 30 of every 100 visits.')
  })

  it('refuses weights over 100 and a missing weight, in people’s words, keeping the values', async () => {
    const res = await alice.post(
      '/dashboard/links/new',
      form([
        ['rotation[0][value]', 'https://a.example.com/'],
        ['rotation[0][weight]', '80'],
        ['rotation[1][value]', 'https://b.example.com/'],
        ['rotation[1][weight]', '40'],
        ['rotation[2][value]', 'https://c.example.com/'],
        ['rotation[2][weight]', ''],
      ]),
    )
    expectStatus(res, 422)
    expect(res.body).toContain(
      'Fill in “Weight 3” of the rotation: once one row has a weight, every row needs one.',
    )
    expect(res.body).toContain('The weights of “Rotation” add up to 120: at most 100 in all.')
    expect(inputValue(res.body, 'rotation[1][weight]')).toBe('40')
    expect(share(res.body)).toBe('The weights add up to 120, more than 100.')
  })

  it('takes an app link as the destination URL', async () => {
    const res = await alice.post(
      '/dashboard/links/new',
      encode([
        ['_csrf', csrf],
        ['url', 'mailto:team@example.com'],
        ['domain_id', t.defaultDomainId],
        ['target_type', '0'],
      ]),
    )
    expectStatus(res, 303)
    const id = Number(/\/dashboard\/links\/(\d+)\?/.exec(res.headers.location ?? '')![1])
    expect((await show(t, `links/${id}`)).url).toBe('mailto:team@example.com')
  })
})
