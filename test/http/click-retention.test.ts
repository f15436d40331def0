/**
 * CLICK_LOG_DAYS: a retention pass removes the raw click-log rows older than that, and every
 * statistics answer (the API's every name, JSON and CSV, the dashboard's link statistics and
 * overview, the link's click count) is the same after it as before (the public stats page, with
 * the real server: test/cli/click-retention.test.ts). The Account and Admin pages say what is
 * kept.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeOldClicks } from '../../src/clicks/retention.js'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { click, clicks, writeClicks } from '../support/clicks.js'
import { FormClient, withoutNonce } from '../support/dashboard.js'
import { API, createLink, expectStatus } from './helpers.js'

/** "Today": 2026-04-10 12:00 UTC. With 30 days, rows before 2026-03-11 12:00 UTC are old. */
const NOW = Date.parse('2026-04-10T12:00:00Z')
const NAMES = [
  'clicks',
  'clicks_hour',
  'country',
  'platform',
  'browser',
  'device',
  'language',
  'referrer',
]
const PERIODS = [
  '',
  'from=2025-05-01&to=2026-04-10&per_page=100',
  'from=2026-01-01&to=2026-03-31&sort_by=value&sort=asc&per_page=25',
  'from=2026-03-11&to=2026-03-11',
]

let t: TestApp
let alice: FormClient
let link: number
let other: number
let bobs: number
const OLD = 1234
const RECENT = 9

async function logRows(): Promise<number> {
  const result = await sql<{ n: string | number }>`SELECT count(*) AS n FROM clicks`.execute(
    t.services.db.kysely,
  )
  return Number(result.rows[0]!.n)
}

/** Every statistics answer the service gives about the links, by where it was asked. */
async function answers(): Promise<Map<string, string>> {
  const seen = new Map<string, string>()
  const keep = (where: string, status: number, body: string) => {
    expect(status, where).toBe(200)
    seen.set(where, body)
  }
  for (const [id, key] of [
    [link, undefined],
    [other, undefined],
    [bobs, KEY_B],
  ] as const) {
    for (const name of NAMES) {
      for (const period of PERIODS) {
        for (const format of ['json', 'csv']) {
          const url = `${API}/stats/${id}?name=${name}&format=${format}${period ? `&${period}` : ''}`
          const res = await t.call('GET', url, { key })
          keep(url, res.statusCode, res.body)
        }
      }
    }
    const shown = await t.call('GET', `${API}/links/${id}`, { key })
    keep(`${API}/links/${id}`, shown.statusCode, shown.body)
  }
  for (const period of ['', '?from=2025-05-01&to=2026-04-10', '?from=2026-03-01&to=2026-03-31']) {
    const mine = await alice.get(`/dashboard/links/${link}/stats${period}`)
    keep(`/dashboard/links/${link}/stats${period}`, mine.statusCode, withoutNonce(mine.body))
  }
  const overview = await alice.get('/dashboard')
  keep('/dashboard', overview.statusCode, withoutNonce(overview.body))
  return seen
}

beforeAll(async () => {
  t = await createTestApp({ CLICK_LOG_DAYS: '30' }, { now: () => NOW })
  await t.services.accounts.setPassword(t.userA, 'alice password')
  alice = new FormClient(t.app)
  expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
  link = (await createLink(t, { alias: 'tracked' })).id
  other = (await createLink(t, { alias: 'other' })).id
  bobs = (await createLink(t, { alias: 'bobs' }, KEY_B)).id
  // Old rows: a year back to just before the cutoff, every dimension varied. Written in the
  // order of their clicks, as the click writer writes them, before the recent ones.
  const old = [
    ...clicks(1000, link, '2025-06-15T09:30:00Z', { referrer: 'news.example.org' }),
    ...clicks(200, other, '2026-01-31T23:59:59Z', {
      country: null,
      platform: 'iOS',
      browser: 'Safari',
      device: 'mobile',
      language: 'fr',
    }),
    ...clicks(30, bobs, '2026-03-01T00:00:00Z', { country: 'US', referrer: 't.co' }),
    ...clicks(3, link, '2026-03-11T11:59:59Z', { language: null, device: 'tablet' }),
    click(other, '2026-03-11T11:59:59.999Z', { visitor: 'returning' }),
  ]
  expect(old).toHaveLength(OLD)
  await writeClicks(t.services.db, old)
  await writeClicks(t.services.db, [
    ...clicks(2, link, '2026-03-11T12:00:00Z', { country: 'FR' }),
    ...clicks(4, link, '2026-04-09T08:00:00Z', { country: 'JP', referrer: 'www.google.com' }),
    click(other, '2026-03-11T13:00:00Z', { visitor: 'returning' }),
    ...clicks(2, bobs, '2026-04-10T11:00:00Z'),
  ])
})
afterAll(() => t.close())

describe('click-log retention', () => {
  it('removes the raw rows older than CLICK_LOG_DAYS and changes no statistics answer', async () => {
    expect(await logRows()).toBe(OLD + RECENT)
    const before = await answers()
    // The answers hold the old clicks: had they been read from the log, they would change.
    expect(before.get(`${API}/stats/${link}?name=clicks&format=json&${PERIODS[1]}`)).toContain(
      '{"value":"2025-06-15","count":1000}',
    )
    expect(before.get(`${API}/stats/${other}?name=platform&format=csv&${PERIODS[1]}`)).toBe(
      'value,count\r\niOS,200\r\nWindows,2\r\n',
    )

    expect(await removeOldClicks(t.services.db, 30, { now: NOW })).toBe(OLD)
    expect(await logRows()).toBe(RECENT)
    const kept = await sql<{ at: number | string }>`SELECT at FROM clicks`.execute(
      t.services.db.kysely,
    )
    for (const row of kept.rows)
      expect(Number(row.at)).toBeGreaterThanOrEqual(NOW - 30 * 86_400_000)

    const after = await answers()
    expect([...after.keys()]).toEqual([...before.keys()])
    for (const [where, body] of before) expect(after.get(where), where).toBe(body)
    // A second pass finds nothing more.
    expect(await removeOldClicks(t.services.db, 30, { now: NOW })).toBe(0)
    expect(await logRows()).toBe(RECENT)
  })

  it('says on the Account and Admin pages what is kept', async () => {
    const text =
      '<p id="click-retention">Raw clicks are kept 30 days; daily statistics are kept for ever.</p>'
    expect((await alice.get('/dashboard/account')).body).toContain(text)
    expect((await alice.get('/dashboard/admin')).body).toContain(text)
    const keepAll = await createTestApp()
    try {
      await keepAll.services.accounts.setPassword(keepAll.userA, 'alice password')
      const admin = new FormClient(keepAll.app)
      expectStatus(await admin.signIn('a@example.com', 'alice password'), 303)
      const unset = '<p id="click-retention">Raw clicks and daily statistics are kept for ever.</p>'
      expect((await admin.get('/dashboard/account')).body).toContain(unset)
      expect((await admin.get('/dashboard/admin')).body).toContain(unset)
    } finally {
      await keepAll.close()
    }
  })
})
