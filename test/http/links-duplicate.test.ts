/**
 * Duplicating a link (`POST /api/v1/links/{id}/duplicate`): every setting copied, its clicks
 * not, a new alias (given or random), the create's answer and its link.created event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DomainEvent } from '../../src/events/types.js'
import { KEY_B, createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  NOT_FOUND,
  RANDOM_ALIAS,
  anyTimestamp,
  createLink,
  createPixel,
  createSpace,
  expectStatus,
  setClicks,
  show,
  validation,
  type Rec,
} from './helpers.js'

let t: TestApp
const created: DomainEvent[] = []
beforeAll(async () => {
  t = await createTestApp()
  t.services.events.afterCommit((event) => {
    if (event.type === 'link.created') created.push(event)
  })
})
afterAll(() => t.close())

function duplicate(
  id: number,
  options: { form?: Record<string, string>; json?: unknown; key?: string } = {},
) {
  return t.call('POST', `${API}/links/${id}/duplicate`, options)
}

async function secretsOf(id: number) {
  return t.services.db.kysely
    .selectFrom('links')
    .select(['password', 'privacy_password', 'title_locked', 'last_rotation'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

describe('duplicate', () => {
  let original: Rec
  beforeAll(async () => {
    const space = await createSpace(t, { name: 'Copied space' })
    const pixel1 = await createPixel(t, { name: 'Copied one' })
    const pixel2 = await createPixel(t, { name: 'Copied two' })
    const res = await t.call('POST', `${API}/links`, {
      json: {
        url: 'https://example.org/spring?utm_source=mail#top',
        alias: 'original',
        title: 'Spring sale',
        password: 'visitor secret',
        privacy: 2,
        privacy_password: 'stats secret',
        disabled: 1,
        expiration_url: 'https://example.org/over',
        expiration_date: '2099-05-01',
        expiration_time: '10:30',
        expiration_clicks: 50,
        target_type: 1,
        country: [{ key: 'FR', value: 'https://example.fr' }],
        platform: [{ key: 'iOS', value: 'https://apps.example/ios' }],
        language: [{ key: 'de', value: 'https://example.de' }],
        rotation: [{ value: 'https://a.example' }, { value: 'https://b.example' }],
        space_id: space.id,
        pixel_ids: [pixel2.id, pixel1.id],
      },
    })
    expectStatus(res, 201)
    original = res.json().data as Rec
    await setClicks(t, original.id, 7)
    original = await show(t, `links/${original.id}`)
  })

  it('answers 201 with the new link in the create shape: every setting, no clicks, a random alias', async () => {
    const res = await duplicate(original.id)
    expectStatus(res, 201)
    const body = res.json() as { data: Rec; status: number }
    expect(body.status).toBe(200)
    const copy = body.data
    expect(copy.alias).toMatch(RANDOM_ALIAS)
    expect(copy).toEqual({
      ...original,
      id: expect.any(Number),
      alias: copy.alias,
      short_url: `http://short.test/${String(copy.alias)}`,
      clicks: 0,
      last_rotation: null,
      created_at: anyTimestamp(),
      updated_at: anyTimestamp(),
    })
    expect(copy.id).not.toBe(original.id)
    expect(Object.keys(copy)).toEqual(Object.keys(original))
    expect(await show(t, `links/${copy.id}`)).toEqual(copy)
    // The stored secrets are the very hashes: both passwords keep working on the copy.
    const [a, b] = [await secretsOf(original.id), await secretsOf(copy.id)]
    expect(b.password).toBe(a.password)
    expect(b.privacy_password).toBe(a.privacy_password)
    expect(a.password).toMatch(/\S{20,}/)
    expect(b.title_locked).toBe(1)
    // The original is as it was.
    expect(await show(t, `links/${original.id}`)).toEqual(original)
  })

  it('raises link.created with the new record', async () => {
    const before = created.length
    const res = await duplicate(original.id, { form: { alias: 'evented-copy' } })
    expectStatus(res, 201)
    expect(created.slice(before).map((e) => [e.type, e.data])).toEqual([
      ['link.created', { link: res.json().data }],
    ])
  })

  it('takes an alias from a form or JSON body, checked as on create', async () => {
    const form = await duplicate(original.id, { form: { alias: 'copy-form' } })
    expectStatus(form, 201)
    expect(form.json().data.alias).toBe('copy-form')
    const json = await duplicate(original.id, { json: { alias: 'copy_json' } })
    expectStatus(json, 201)
    expect(json.json().data.short_url).toBe('http://short.test/copy_json')

    for (const [alias, message] of [
      ['copy-form', 'The alias has already been taken.'],
      ['original', 'The alias has already been taken.'],
      ['api', 'The alias is reserved.'],
      [
        'not valid!',
        'The alias field must only contain letters, numbers, dashes, and underscores.',
      ],
      ['a'.repeat(256), 'The alias field must not be greater than 255 characters.'],
    ] as const) {
      const res = await duplicate(original.id, { form: { alias } })
      expectStatus(res, 422)
      expect(res.json(), alias).toEqual(validation({ alias: [message] }))
    }
  })

  it('takes an empty alias as none (a random one)', async () => {
    const res = await duplicate(original.id, { form: { alias: '' } })
    expectStatus(res, 201)
    expect(res.json().data.alias).toMatch(RANDOM_ALIAS)
  })

  it('copies a plain link, and a copy of a copy', async () => {
    const plain = await createLink(t, { alias: 'plain-one' })
    const first = await duplicate(plain.id)
    expectStatus(first, 201)
    const second = await duplicate(first.json().data.id, { form: { alias: 'plain-three' } })
    expectStatus(second, 201)
    expect(second.json().data).toEqual({
      ...plain,
      id: expect.any(Number),
      alias: 'plain-three',
      short_url: 'http://short.test/plain-three',
      created_at: anyTimestamp(),
      updated_at: anyTimestamp(),
    })
  })

  it('answers another user’s link, a missing one and a malformed id as missing', async () => {
    const before = created.length
    for (const [id, key] of [
      [original.id, KEY_B],
      [999999, undefined],
    ] as const) {
      const res = await duplicate(id, key ? { key } : {})
      expectStatus(res, 404)
      expect(res.json()).toEqual(NOT_FOUND)
    }
    const bad = await t.call('POST', `${API}/links/abc/duplicate`)
    expectStatus(bad, 404)
    expect(bad.json()).toEqual(NOT_FOUND)
    expect(created.length).toBe(before)
  })

  it('refuses unauthenticated requests', async () => {
    const res = await duplicate(original.id, { key: '' })
    expectStatus(res, 401)
  })
})
