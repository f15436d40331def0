/**
 * QR images are limited per user: QR_IMAGES_PER_MINUTE a minute through all the user's API keys
 * and the dashboard together, each request counted before anything else. Over it, the API
 * answers the contract's 429 with `Retry-After`, the dashboard a plain 429 page; another user
 * is not affected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QR_IMAGES_PER_MINUTE } from '../../src/links/qr.js'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { FormClient } from '../support/dashboard.js'
import { API, createLink, expectStatus, TOO_MANY } from './helpers.js'

let t: TestApp
let alice: FormClient
let link: number
let bobs: number
let secondKey: string

beforeAll(async () => {
  t = await createTestApp()
  await t.services.accounts.setPassword(t.userA, 'alice password')
  link = (await createLink(t, { alias: 'poster' })).id
  bobs = (await createLink(t, { alias: 'bobs' }, KEY_B)).id
  secondKey = await t.services.users.createKey('a@example.com')
  alice = new FormClient(t.app)
  expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
})
afterAll(() => t.close())

function expectRetryAfter(value: unknown): void {
  expect(value).toMatch(/^\d+$/)
  expect(Number(value)).toBeGreaterThanOrEqual(1)
  expect(Number(value)).toBeLessThanOrEqual(60)
}

describe('the QR limit', () => {
  it('counts every QR image of a user, through every key and the dashboard', async () => {
    expect(QR_IMAGES_PER_MINUTE).toBe(30)
    const third = QR_IMAGES_PER_MINUTE / 3
    for (let i = 0; i < third; i++) {
      expectStatus(await t.call('GET', `${API}/links/${link}/qr?format=png&size=${64 + i}`), 200)
      const other = await t.call('GET', `${API}/links/${link}/qr`, { key: secondKey })
      expectStatus(other, 200)
      expectStatus(await alice.get(`/dashboard/links/${link}/qr.svg`), 200)
    }

    const api = await t.call('GET', `${API}/links/${link}/qr?format=png&size=1024`)
    expectStatus(api, 429)
    expect(api.json()).toEqual(TOO_MANY)
    expect(api.headers['content-type']).toBe('application/json; charset=utf-8')
    expectRetryAfter(api.headers['retry-after'])
    const viaOtherKey = await t.call('GET', `${API}/links/${link}/qr`, { key: secondKey })
    expectStatus(viaOtherKey, 429)
    expect(viaOtherKey.json()).toEqual(TOO_MANY)

    const page = await alice.get(`/dashboard/links/${link}/qr.png?size=1024`)
    expectStatus(page, 429)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expectRetryAfter(page.headers['retry-after'])
    expect(page.body).toContain('Too many requests')
    // Counted before anything else: a link that is not there is no way round it.
    expectStatus(await t.call('GET', `${API}/links/999999/qr`), 429)

    // The rest of the API and the dashboard go on.
    expectStatus(await t.call('GET', `${API}/links/${link}`), 200)
    expectStatus(await alice.get(`/dashboard/links/${link}/qr`), 200)
  })

  it('leaves another user alone', async () => {
    // Alice's limit is spent (the test above), so a shared count would refuse Bob too.
    expectStatus(await t.call('GET', `${API}/links/999999/qr`), 429)
    const res = await t.call('GET', `${API}/links/${bobs}/qr?format=png`, { key: KEY_B })
    expectStatus(res, 200)
    expect(res.headers['content-type']).toBe('image/png')
  })
})
