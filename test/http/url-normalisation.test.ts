/**
 * URLs are stored and shown as the URL parser reads them, which is where a redirect goes:
 * `http://evil.test\@example.com/` is `http://evil.test/@example.com/`, on the API (links'
 * url, expiration_url and targeting values, domains' pages, webhooks' url) and through the
 * dashboard's form. Migration 0023 does the same to URLs stored before.
 */
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { normalisedUrls } from '../../src/db/migrations/0023-normalised-urls.js'
import { createTestApp, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { API, expectStatus, type Rec } from './helpers.js'

const TYPED = 'http://evil.test\\@example.com/'
const GOES = 'http://evil.test/@example.com/'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

async function created(path: string, form: Record<string, string | number>): Promise<Rec> {
  const res = await t.call('POST', `${API}/${path}`, { form })
  expectStatus(res, 201)
  return (res.json() as { data: Rec }).data
}

async function shown(path: string): Promise<Rec> {
  const res = await t.call('GET', `${API}/${path}`)
  expectStatus(res, 200)
  return (res.json() as { data: Rec }).data
}

describe('URLs as the parser reads them', () => {
  it('stores a link’s url, expiration_url and targeting values normalised', async () => {
    const link = await created('links', {
      url: TYPED,
      expiration_url: TYPED,
      target_type: 1,
      'country[0][key]': 'US',
      'country[0][value]': TYPED,
      'rotation[0][value]': TYPED,
    })
    const expected = {
      url: GOES,
      expiration_url: GOES,
      country_target: [{ key: 'US', value: GOES }],
      rotation_target: [{ value: GOES }],
    }
    expect(link).toMatchObject(expected)
    expect(await shown(`links/${link.id}`)).toMatchObject(expected)
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      form: { url: 'HTTPS://Example.COM:443/a/../b' },
    })
    expectStatus(res, 200)
    expect((res.json() as { data: Rec }).data.url).toBe('https://example.com/b')
  })

  it('stores a domain’s pages and a webhook’s url normalised', async () => {
    const domain = await created('domains', {
      name: 'pages.example.com',
      index_page: TYPED,
      not_found_page: TYPED,
    })
    expect(domain).toMatchObject({ index_page: GOES, not_found_page: GOES })
    const hook = await created('webhooks', { url: TYPED, 'events[]': 'link.created' })
    expect(hook.url).toBe(GOES)
  })

  it('stores the dashboard form’s url normalised', async () => {
    await t.services.accounts.setPassword(t.userA, 'alice password')
    const alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
    const csrf = csrfOf((await alice.get('/dashboard/links/new')).body)
    const form = new URLSearchParams([
      ['_csrf', csrf],
      ['url', TYPED],
      ['domain_id', String(t.defaultDomainId)],
      ['expiration_url', TYPED],
    ])
    const res = await alice.post('/dashboard/links/new', form.toString())
    expectStatus(res, 303)
    const id = /\/dashboard\/links\/(\d+)\?/.exec(res.headers.location ?? '')![1]
    expect(await shown(`links/${id}`)).toMatchObject({ url: GOES, expiration_url: GOES })
    const edit = await alice.get(`/dashboard/links/${id}`)
    expect(edit.body).toContain(GOES)
    expect(edit.body).not.toContain('evil.test\\@')
  })

  it('migration 0023 normalises URLs stored before, and nothing else', async () => {
    const db = t.services.db.kysely
    const link = await created('links', { url: 'https://example.com/a' })
    const untouched = await created('links', { url: 'https://example.com/kept' })
    const targets = JSON.stringify([{ key: 'US', value: TYPED }])
    await db
      .updateTable('links')
      .set({ url: TYPED, expiration_url: TYPED, country_target: targets, updated_at: 1000 })
      .where('id', '=', link.id)
      .execute()
    const domain = await created('domains', { name: 'old.example.com' })
    await db
      .updateTable('domains')
      .set({ index_page: TYPED, not_found_page: 'not a url' })
      .where('id', '=', domain.id)
      .execute()
    const hook = await created('webhooks', {
      url: 'https://hooks.example/in',
      'events[]': 'link.created',
    })
    await db.updateTable('webhooks').set({ url: TYPED }).where('id', '=', hook.id).execute()
    const before = await db
      .selectFrom('links')
      .select(['url', 'updated_at'])
      .where('id', '=', untouched.id)
      .executeTakeFirstOrThrow()

    await normalisedUrls(t.services.db.dialect).up(db as unknown as Kysely<unknown>)

    expect(
      await db
        .selectFrom('links')
        .select(['url', 'expiration_url', 'country_target', 'updated_at'])
        .where('id', '=', link.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      url: GOES,
      expiration_url: GOES,
      country_target: JSON.stringify([{ key: 'US', value: GOES }]),
      updated_at: 1000,
    })
    expect(
      await db
        .selectFrom('links')
        .select(['url', 'updated_at'])
        .where('id', '=', untouched.id)
        .executeTakeFirstOrThrow(),
    ).toEqual(before)
    expect(
      await db
        .selectFrom('domains')
        .select(['index_page', 'not_found_page'])
        .where('id', '=', domain.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ index_page: GOES, not_found_page: 'not a url' })
    expect(await shown(`webhooks/${hook.id}`)).toMatchObject({ url: GOES })
  })
})
