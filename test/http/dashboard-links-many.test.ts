/**
 * The dashboard's links list over more links than it counts (DASHBOARD_COUNT_CAP): filtered, it
 * says "more than 10,000", pages on while a page is full, and shows the last rows where they are;
 * unfiltered, it says how many there are (a number the database keeps).
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DASHBOARD_COUNT_CAP } from '../../src/stats/account-overview.js'
import { createTestApp, type TestApp } from '../support/app.js'
import { FormClient } from '../support/dashboard.js'
import { expectStatus } from './helpers.js'

const MANY = DASHBOARD_COUNT_CAP + 5

describe('dashboard links list past its count cap', () => {
  let t: TestApp
  let alice: FormClient

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    const now = Date.now()
    // Written by the database itself: the API would take minutes for ten thousand links.
    const numbers =
      t.services.db.dialect === 'postgres'
        ? sql`SELECT g AS i FROM generate_series(1, ${MANY}) AS g`
        : sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${MANY}) SELECT i FROM n`
    const text = t.services.db.dialect === 'postgres' ? sql`::text` : sql``
    await sql`INSERT INTO links (user_id, domain_id, alias, url, title, title_locked, target_type,
        disabled, privacy, clicks, created_at, updated_at)
      SELECT ${t.userA}, ${t.defaultDomainId}, 'many-' || i${text}, 'https://example.com/' || i${text},
        NULL, 0, 0, 0, 0, 0, ${now}, ${now}
      FROM (${numbers}) AS numbers`.execute(t.services.db.kysely)
    alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
  })
  afterAll(() => t.close())

  it('says "more than 10,000 links" of a filter, with a next page and no page count', async () => {
    const res = await alice.get('/dashboard/links?status=1&per_page=100')
    expectStatus(res, 200)
    expect(res.body).toContain('1–100 of more than 10,000 links')
    expect(res.body).toContain('<span>Page 1</span>')
    expect(res.body).toContain(
      'rel="next" href="/dashboard/links?status=1&amp;per_page=100&amp;page=2"',
    )
    expect(res.body).not.toContain('Page 1 of')
  })

  it('shows the last rows on the last full page of a filter and stops there', async () => {
    const pages = Math.ceil(MANY / 100)
    const last = await alice.get(`/dashboard/links?status=1&per_page=100&page=${pages}`)
    expectStatus(last, 200)
    expect(last.body).toContain('10,001–10,005 of more than 10,000 links')
    expect(last.body).toContain('many-1<')
    expect(last.body).not.toContain('rel="next"')
    const past = await alice.get(`/dashboard/links?status=1&per_page=100&page=${pages + 1}`)
    expectStatus(past, 200)
    expect(past.body).toContain('No links on this page.')
    expect(past.body).not.toContain('rel="next"')
  })

  it('says how many links there are without a filter, with the page count', async () => {
    const res = await alice.get('/dashboard/links?per_page=100')
    expectStatus(res, 200)
    expect(res.body).toContain('1–100 of 10,005 links')
    expect(res.body).toContain('Page 1 of 101')
    expect(res.body).toContain('rel="next" href="/dashboard/links?per_page=100&amp;page=2"')
    const last = await alice.get('/dashboard/links?per_page=100&page=101')
    expectStatus(last, 200)
    expect(last.body).toContain('10,001–10,005 of 10,005 links')
    expect(last.body).toContain('many-1<')
    expect(last.body).not.toContain('rel="next"')
    const tens = await alice.get('/dashboard/links?per_page=10&page=1000')
    expectStatus(tens, 200)
    expect(tens.body).toContain('9,991–10,000 of 10,005 links')
    expect(tens.body).toContain('Page 1,000 of 1,001')
  })

  it('counts exactly in the API', async () => {
    const res = await t.call('GET', '/api/v1/links?per_page=10')
    expectStatus(res, 200)
    expect((res.json() as { meta: { total: number } }).meta.total).toBe(MANY)
  })
})
