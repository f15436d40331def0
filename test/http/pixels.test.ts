/** Pixels: the five operations, the record, the field rules of contract §4 and the list. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY_B, createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  BASE,
  PIXEL_FIELDS,
  anyTimestamp,
  createLink,
  createPixel,
  expectStatus,
  jsonContentType,
  listIds,
  show,
  validation,
  type Rec,
} from './helpers.js'
import { listTests, recordTests } from './resource-tests.js'

const TYPES = [
  'adroll',
  'bing',
  'facebook',
  'google-ads',
  'google-analytics',
  'google-tag-manager',
  'linkedin',
  'pinterest',
  'quora',
  'twitter',
]

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

function post(form: Record<string, string | number> | string, key?: string) {
  return t.call('POST', `${API}/pixels`, { form, ...(key ? { key } : {}) })
}

async function expect422(
  res: Awaited<ReturnType<typeof post>>,
  message: Record<string, unknown[]>,
) {
  expectStatus(res, 422)
  expect(res.json()).toEqual(validation(message))
}

describe('store and show', () => {
  it('stores a pixel: HTTP 201 with the record and "status":200, fields in order', async () => {
    const res = await post({ name: 'Shop', type: 'facebook', value: '1234567890' })
    expectStatus(res, 201)
    jsonContentType(res)
    expect(res.json()).toEqual({
      data: {
        id: expect.any(Number),
        name: 'Shop',
        type: 'facebook',
        value: '1234567890',
        created_at: anyTimestamp(),
        updated_at: anyTimestamp(),
      },
      status: 200,
    })
    expect(Object.keys(res.json().data)).toEqual(PIXEL_FIELDS)
  })

  it('shows a pixel: 200 {data,status:200}', async () => {
    const pixel = await createPixel(t, { name: 'Shown' })
    const res = await t.call('GET', `${API}/pixels/${pixel.id}`)
    expectStatus(res, 200)
    expect(res.json()).toEqual({ data: pixel, status: 200 })
    expect(Object.keys(res.json().data)).toEqual(PIXEL_FIELDS)
  })

  it.each(TYPES)('accepts the type %s', async (type) => {
    const value = type === 'adroll' ? 'ADV123-PIX456' : 'abc-123_DEF'
    const res = await post({ name: `type ${type}`, type, value })
    expectStatus(res, 201)
    expect(res.json().data).toMatchObject({ type, value })
  })

  it('accepts `x` as the newer name of twitter and stores twitter', async () => {
    const res = await post({ name: 'X pixel', type: 'x', value: 'o1abc' })
    expectStatus(res, 201)
    expect(res.json().data.type).toBe('twitter')
  })
})

describe('field rules', () => {
  it('requires name, type and value, reporting all three at once', async () => {
    await expect422(await post({}), {
      name: ['The name field is required.'],
      type: ['The type field is required.'],
      value: ['The value field is required.'],
    })
  })

  it.each(['tiktok', 'Facebook', 'google', 'X', 'twitter '])(
    'rejects the type %j',
    async (type) => {
      await expect422(await post({ name: `bad ${type}`, type, value: 'v1' }), {
        type: ['The selected type is invalid.'],
      })
    },
  )

  it('accepts a name of 32 characters and rejects 33', async () => {
    expectStatus(await post({ name: 'n'.repeat(32), type: 'bing', value: 'v' }), 201)
    await expect422(await post({ name: 'n'.repeat(33), type: 'bing', value: 'v' }), {
      name: ['The name field must not be greater than 32 characters.'],
    })
  })

  it('rejects a name the user already has, and allows it for another user', async () => {
    await createPixel(t, { name: 'Twice' })
    await expect422(await post({ name: 'Twice', type: 'bing', value: 'v' }), {
      name: ['The name has already been taken.'],
    })
    expectStatus(await post({ name: 'Twice', type: 'bing', value: 'v' }, KEY_B), 201)
  })

  it('accepts a value of 255 characters and rejects 256', async () => {
    expectStatus(await post({ name: 'long ok', type: 'bing', value: 'v'.repeat(255) }), 201)
    await expect422(await post({ name: 'too long', type: 'bing', value: 'v'.repeat(256) }), {
      value: ['The value field must not be greater than 255 characters.'],
    })
  })

  it.each(['with space', 'dot.ted', '<script>', "quo'te", 'a/b'])(
    'rejects the value %j (letters, digits, - and _ only)',
    async (value) => {
      await expect422(await post({ name: `v ${value}`, type: 'facebook', value }), {
        value: ['The value field must only contain letters, numbers, dashes, and underscores.'],
      })
    },
  )

  it.each(['ADVID', 'ADV-PIX-EXTRA', '-PIX', 'ADV-', 'ADV_PIX'])(
    'rejects the adroll value %j (needs ADVID-PIXID)',
    async (value) => {
      await expect422(await post({ name: `adroll ${value}`, type: 'adroll', value }), {
        value: ['The value field must have the format ADVID-PIXID for an adroll pixel.'],
      })
    },
  )

  it('reports every failing field at once', async () => {
    await createPixel(t, { name: 'Taken' })
    await expect422(await post({ name: 'Taken', type: 'nope', value: 'a b' }), {
      name: ['The name has already been taken.'],
      type: ['The selected type is invalid.'],
      value: ['The value field must only contain letters, numbers, dashes, and underscores.'],
    })
  })
})

describe('update', () => {
  for (const method of ['PUT', 'PATCH'] as const) {
    it(`${method} changes the fields sent and keeps the others`, async () => {
      const pixel = await createPixel(t, { name: `Before ${method}`, type: 'bing', value: 'b1' })
      const res = await t.call(method, `${API}/pixels/${pixel.id}`, {
        form: { name: `After ${method}` },
      })
      expectStatus(res, 200)
      expect(res.json()).toEqual({
        data: { ...pixel, name: `After ${method}`, updated_at: anyTimestamp() },
        status: 200,
      })
      expect(Object.keys(res.json().data)).toEqual(PIXEL_FIELDS)
      expect(await show(t, `pixels/${pixel.id}`)).toEqual(res.json().data)
    })
  }

  it('stores type x as twitter on update too', async () => {
    const pixel = await createPixel(t, { name: 'To X', type: 'bing', value: 'b1' })
    const res = await t.call('PATCH', `${API}/pixels/${pixel.id}`, { form: { type: 'x' } })
    expectStatus(res, 200)
    expect(res.json().data.type).toBe('twitter')
  })

  it('keeps the pixel’s own name (not a duplicate of itself)', async () => {
    const pixel = await createPixel(t, { name: 'Itself' })
    const res = await t.call('PUT', `${API}/pixels/${pixel.id}`, {
      form: { name: 'Itself', value: 'new-value' },
    })
    expectStatus(res, 200)
    expect(res.json().data).toMatchObject({ name: 'Itself', value: 'new-value' })
  })

  it('rejects renaming to the name of another of the user’s pixels', async () => {
    await createPixel(t, { name: 'Occupied' })
    const pixel = await createPixel(t, { name: 'Renamer' })
    const res = await t.call('PATCH', `${API}/pixels/${pixel.id}`, { form: { name: 'Occupied' } })
    await expect422(res, { name: ['The name has already been taken.'] })
  })

  it('checks the stored value against a new adroll type', async () => {
    const pixel = await createPixel(t, { name: 'Becomes adroll', type: 'bing', value: 'plain' })
    const res = await t.call('PATCH', `${API}/pixels/${pixel.id}`, { form: { type: 'adroll' } })
    await expect422(res, {
      value: ['The value field must have the format ADVID-PIXID for an adroll pixel.'],
    })
    expect(await show(t, `pixels/${pixel.id}`)).toEqual(pixel)
  })

  it('checks a new value against the stored adroll type', async () => {
    const pixel = await createPixel(t, { name: 'Is adroll', type: 'adroll', value: 'A1-P1' })
    const res = await t.call('PATCH', `${API}/pixels/${pixel.id}`, { form: { value: 'plain' } })
    await expect422(res, {
      value: ['The value field must have the format ADVID-PIXID for an adroll pixel.'],
    })
  })

  it('rejects an empty name on create (a pixel always has a name)', async () => {
    await expect422(await post('name=&type=bing&value=v1'), {
      name: ['The name field is required.'],
    })
  })

  it('rejects an empty name on update and keeps the stored one', async () => {
    const pixel = await createPixel(t, { name: 'Not empty' })
    const res = await t.call('PATCH', `${API}/pixels/${pixel.id}`, { form: 'name=' })
    await expect422(res, { name: ['The name field is required.'] })
    expect(await show(t, `pixels/${pixel.id}`)).toEqual(pixel)
  })
})

describe('delete', () => {
  it('detaches a deleted pixel from its links, keeping the links and their other pixels', async () => {
    const gone = await createPixel(t, { name: 'Detached' })
    const kept = await createPixel(t, { name: 'Still here' })
    const link = await createLink(
      t,
      `url=${encodeURIComponent('https://example.com/p')}&domain_id=${t.defaultDomainId}` +
        `&pixel_ids[]=${gone.id}&pixel_ids[]=${kept.id}`,
    )
    expect((link.pixels as Rec[]).map((p) => p.id)).toEqual([gone.id, kept.id])
    expectStatus(await t.call('DELETE', `${API}/pixels/${gone.id}`), 200)
    const after = await show(t, `links/${link.id}`)
    expect(after).toEqual({ ...link, pixels: [kept] })
    expect(await listIds(t, `links?pixel_id=${gone.id}`)).toEqual([])
    expect(await listIds(t, `links?pixel_id=${kept.id}`)).toEqual([link.id])
  })
})

describe('missing and deleted records', () => {
  recordTests({
    path: 'pixels',
    noun: 'pixel',
    app: () => t,
    create: () => createPixel(t, { name: 'Doomed' }),
    update: { name: 'x' },
  })
})

describe('list', () => {
  const KEY_L = 'test-key-pixel-lister-0123456789'
  const P: Rec[] = []

  beforeAll(async () => {
    await t.services.users.createUser({ email: 'lister@example.com', apiKey: KEY_L })
    const rows: [string, string, string][] = [
      ['Shop EU', 'facebook', 'f1'],
      ['shop_us', 'twitter', 't1'],
      ['Blog', 'google-analytics', 'G-1'],
      ['100% off', 'x', 'x1'],
      ['analytics', 'google-analytics', 'G-2'],
    ]
    for (const [name, type, value] of rows)
      P.push(await createPixel(t, { name, type, value }, KEY_L))
  })

  const ids = (...n: number[]) => n.map((i) => P[i]!.id)

  listTests({
    path: 'pixels',
    app: () => t,
    key: KEY_L,
    records: () => P,
    queries: {
      'searches names case-insensitively, with % and _ literal': () => [
        ['&search=SHOP', ids(1, 0)],
        ['&search=shop&search_by=name', ids(1, 0)],
        ['&search=_', ids(1)],
        ['&search=%25', ids(3)],
      ],
      'filters by type, `x` matching twitter pixels': () => [
        ['&type=google-analytics', ids(4, 2)],
        ['&type=twitter', ids(3, 1)],
        ['&type=x', ids(3, 1)],
        ['&type=quora', []],
      ],
      'sorts by id and by name (case-insensitive), both directions': () => [
        ['&sort_by=id&sort=asc', ids(0, 1, 2, 3, 4)],
        ['&sort_by=id&sort=desc', ids(4, 3, 2, 1, 0)],
        ['&sort_by=name&sort=asc', ids(3, 4, 2, 0, 1)],
        ['&sort_by=name&sort=desc', ids(1, 0, 2, 4, 3)],
      ],
    },
    invalid: [
      ['type=tiktok', { type: ['The selected type is invalid.'] }],
      ['sort_by=value', { sort_by: ['The selected sort by is invalid.'] }],
      ['search_by=type', { search_by: ['The selected search by is invalid.'] }],
      ['per_page=20', { per_page: ['The selected per page is invalid.'] }],
      ['sort=up', { sort: ['The selected sort is invalid.'] }],
      ['page=0', { page: ['The page field must be at least 1.'] }],
    ],
  })

  it('pages with per_page and keeps the filters in the page URLs', async () => {
    const res = await t.call('GET', `${API}/pixels?type=google-analytics&sort=asc&per_page=10`, {
      key: KEY_L,
    })
    expect(res.json().links.first).toBe(
      `${BASE}/api/v1/pixels?type=google-analytics&sort=asc&per_page=10&page=1`,
    )
    expect(res.json().data.map((p: Rec) => p.id)).toEqual(ids(2, 4))
  })
})
