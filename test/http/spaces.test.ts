/** Spaces: the five operations, the record, the field rules and the list. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY_B, createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  BASE,
  SPACE_FIELDS,
  anyTimestamp,
  createLink,
  createPixel,
  createSpace,
  expectStatus,
  jsonContentType,
  listIds,
  show,
  validation,
  type Rec,
} from './helpers.js'
import { listTests, recordTests } from './resource-tests.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

function post(form: Record<string, string | number> | string, key?: string) {
  return t.call('POST', `${API}/spaces`, { form, ...(key ? { key } : {}) })
}

async function expect422(
  res: Awaited<ReturnType<typeof post>>,
  message: Record<string, unknown[]>,
) {
  expectStatus(res, 422)
  expect(res.json()).toEqual(validation(message))
}

describe('store and show', () => {
  it('stores a space: HTTP 201 with the record and "status":200, fields in order', async () => {
    const res = await post({ name: 'Campaigns', color: 3 })
    expectStatus(res, 201)
    jsonContentType(res)
    expect(res.json()).toEqual({
      data: {
        id: expect.any(Number),
        name: 'Campaigns',
        color: 3,
        created_at: anyTimestamp(),
        updated_at: anyTimestamp(),
      },
      status: 200,
    })
    expect(Object.keys(res.json().data)).toEqual(SPACE_FIELDS)
  })

  it('gives a space color 1 by default', async () => {
    const res = await post({ name: 'Default color' })
    expectStatus(res, 201)
    expect(res.json().data.color).toBe(1)
  })

  it('shows a space: 200 {data,status:200}', async () => {
    const space = await createSpace(t, { name: 'Shown', color: 6 })
    const res = await t.call('GET', `${API}/spaces/${space.id}`)
    expectStatus(res, 200)
    expect(res.json()).toEqual({ data: space, status: 200 })
    expect(Object.keys(res.json().data)).toEqual(SPACE_FIELDS)
  })
})

describe('field rules', () => {
  it('requires a name', async () => {
    await expect422(await post({ color: 2 }), { name: ['The name field is required.'] })
  })

  it('rejects an empty name on create', async () => {
    await expect422(await post('name=&color=2'), { name: ['The name field is required.'] })
  })

  it.each([1, 2, 3, 4, 5, 6])('accepts color %i', async (color) => {
    const res = await post({ name: `Color ${color}`, color })
    expectStatus(res, 201)
    expect(res.json().data.color).toBe(color)
  })

  it.each(['0', '7', '-1'])('rejects color %s', async (color) => {
    await expect422(await post({ name: `Bad color ${color}`, color }), {
      color: ['The selected color is invalid.'],
    })
  })

  it('accepts a name of 32 characters and rejects 33', async () => {
    expectStatus(await post({ name: 's'.repeat(32) }), 201)
    await expect422(await post({ name: 's'.repeat(33) }), {
      name: ['The name field must not be greater than 32 characters.'],
    })
  })

  it('rejects a name the user already has, and allows it for another user', async () => {
    await createSpace(t, { name: 'Twice' })
    await expect422(await post({ name: 'Twice' }), { name: ['The name has already been taken.'] })
    expectStatus(await post({ name: 'Twice' }, KEY_B), 201)
  })

  it('reports every failing field at once', async () => {
    await expect422(await post({ name: 'n'.repeat(40), color: 9 }), {
      name: ['The name field must not be greater than 32 characters.'],
      color: ['The selected color is invalid.'],
    })
  })
})

describe('update', () => {
  for (const method of ['PUT', 'PATCH'] as const) {
    it(`${method} changes the fields sent and keeps the others`, async () => {
      const space = await createSpace(t, { name: `Before ${method}`, color: 2 })
      const res = await t.call(method, `${API}/spaces/${space.id}`, { form: { color: 5 } })
      expectStatus(res, 200)
      expect(res.json()).toEqual({
        data: { ...space, color: 5, updated_at: anyTimestamp() },
        status: 200,
      })
      expect(await show(t, `spaces/${space.id}`)).toEqual(res.json().data)
    })
  }

  it('renames a space; its links show the new name', async () => {
    const space = await createSpace(t, { name: 'Old name' })
    const link = await createLink(t, { space_id: space.id })
    const res = await t.call('PATCH', `${API}/spaces/${space.id}`, { form: { name: 'New name' } })
    expectStatus(res, 200)
    expect((await show(t, `links/${link.id}`)).space).toEqual(res.json().data)
  })

  it('keeps the space’s own name (not a duplicate of itself)', async () => {
    const space = await createSpace(t, { name: 'Itself' })
    const res = await t.call('PUT', `${API}/spaces/${space.id}`, { form: { name: 'Itself' } })
    expectStatus(res, 200)
  })

  it('rejects renaming to the name of another of the user’s spaces', async () => {
    await createSpace(t, { name: 'Occupied' })
    const space = await createSpace(t, { name: 'Renamer' })
    const res = await t.call('PATCH', `${API}/spaces/${space.id}`, { form: { name: 'Occupied' } })
    await expect422(res, { name: ['The name has already been taken.'] })
    expect(await show(t, `spaces/${space.id}`)).toEqual(space)
  })

  it('rejects an empty name on update and keeps the stored one', async () => {
    const space = await createSpace(t, { name: 'Never empty' })
    const res = await t.call('PATCH', `${API}/spaces/${space.id}`, { form: 'name=' })
    await expect422(res, { name: ['The name field is required.'] })
    expect(await show(t, `spaces/${space.id}`)).toEqual(space)
  })
})

describe('delete', () => {
  it('deletes the links of a deleted space, and only those', async () => {
    const doomed = await createSpace(t, { name: 'With links' })
    const other = await createSpace(t, { name: 'Neighbour' })
    const pixel = await createPixel(t, { name: 'Survives' })
    const inside1 = await createLink(t, { space_id: doomed.id, 'pixel_ids[]': pixel.id })
    const inside2 = await createLink(t, { space_id: doomed.id })
    const neighbour = await createLink(t, { space_id: other.id })
    const loose = await createLink(t, {})
    expectStatus(await t.call('DELETE', `${API}/spaces/${doomed.id}`), 200)
    for (const gone of [inside1, inside2]) {
      const res = await t.call('GET', `${API}/links/${gone.id}`)
      expectStatus(res, 404)
    }
    expect(await show(t, `links/${neighbour.id}`)).toEqual(neighbour)
    expect(await show(t, `links/${loose.id}`)).toEqual(loose)
    expect(await show(t, `spaces/${other.id}`)).toEqual(other)
    expect(await show(t, `pixels/${pixel.id}`)).toEqual(pixel)
    expect(await listIds(t, `links?space_id=${doomed.id}`)).toEqual([])
  })
})

describe('missing and deleted records', () => {
  recordTests({
    path: 'spaces',
    noun: 'space',
    app: () => t,
    create: () => createSpace(t, { name: 'Doomed' }),
    update: { color: 2 },
  })
})

describe('list', () => {
  const KEY_L = 'test-key-space-lister-0123456789'
  const S: Rec[] = []

  beforeAll(async () => {
    await t.services.users.createUser({ email: 'spaces@example.com', apiKey: KEY_L })
    for (const name of ['Work', 'home_stuff', 'Archive', '50% done', 'workshop']) {
      S.push(await createSpace(t, { name }, KEY_L))
    }
  })

  const ids = (...n: number[]) => n.map((i) => S[i]!.id)

  listTests({
    path: 'spaces',
    app: () => t,
    key: KEY_L,
    records: () => S,
    queries: {
      'searches names case-insensitively, with % and _ literal': () => [
        ['&search=WORK', ids(4, 0)],
        ['&search=work&search_by=name', ids(4, 0)],
        ['&search=_', ids(1)],
        ['&search=%25', ids(3)],
      ],
      'sorts by id and by name (case-insensitive), both directions': () => [
        ['&sort=asc', ids(0, 1, 2, 3, 4)],
        ['&sort_by=id&sort=desc', ids(4, 3, 2, 1, 0)],
        ['&sort_by=name&sort=asc', ids(3, 2, 1, 0, 4)],
        ['&sort_by=name&sort=desc', ids(4, 0, 1, 2, 3)],
      ],
    },
    invalid: [
      ['sort_by=color', { sort_by: ['The selected sort by is invalid.'] }],
      ['search_by=color', { search_by: ['The selected search by is invalid.'] }],
      ['per_page=5', { per_page: ['The selected per page is invalid.'] }],
      ['sort=down', { sort: ['The selected sort is invalid.'] }],
      ['page=abc', { page: ['The page field must be an integer.'] }],
    ],
  })

  it('answers per_page=25 and keeps search and per_page in the page URLs', async () => {
    const res = await t.call('GET', `${API}/spaces?per_page=25&search=o&page=1`, { key: KEY_L })
    expectStatus(res, 200)
    expect(res.json().meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 1,
      path: `${BASE}/api/v1/spaces`,
      per_page: 25,
      to: 4,
      total: 4,
    })
    expect(res.json().links.first).toBe(`${BASE}/api/v1/spaces?per_page=25&search=o&page=1`)
  })
})
