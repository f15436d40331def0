/** UTM templates: the five operations, the record, the field rules, the list and the events. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DomainEvent } from '../../src/events/types.js'
import { KEY_B, createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  anyTimestamp,
  expectStatus,
  jsonContentType,
  show,
  validation,
  type Rec,
} from './helpers.js'
import { listTests, recordTests } from './resource-tests.js'

const FIELDS = [
  'id',
  'name',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'created_at',
  'updated_at',
]

let t: TestApp
const events: DomainEvent[] = []
beforeAll(async () => {
  t = await createTestApp()
  t.services.events.afterCommit((event) => {
    if (event.type.startsWith('utm_template.')) events.push(event)
  })
})
afterAll(() => t.close())

function post(form: Record<string, string | number> | string, key?: string) {
  return t.call('POST', `${API}/utm-templates`, { form, ...(key ? { key } : {}) })
}

async function create(form: Record<string, string>, key?: string): Promise<Rec> {
  const res = await post(form, key)
  expectStatus(res, 201)
  return res.json().data as Rec
}

async function expect422(
  res: Awaited<ReturnType<typeof post>>,
  message: Record<string, unknown[]>,
) {
  expectStatus(res, 422)
  expect(res.json()).toEqual(validation(message))
}

describe('store and show', () => {
  it('stores a template: 201 with the record, fields in order, unset values null', async () => {
    const res = await post({ name: 'Newsletter', utm_source: 'newsletter', utm_medium: 'email' })
    expectStatus(res, 201)
    jsonContentType(res)
    expect(res.json()).toEqual({
      data: {
        id: expect.any(Number),
        name: 'Newsletter',
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: null,
        utm_term: null,
        utm_content: null,
        created_at: anyTimestamp(),
        updated_at: anyTimestamp(),
      },
      status: 200,
    })
    expect(Object.keys(res.json().data)).toEqual(FIELDS)
    const shown = await t.call('GET', `${API}/utm-templates/${res.json().data.id}`)
    expectStatus(shown, 200)
    expect(shown.json()).toEqual(res.json())
  })

  it('takes JSON bodies and an empty value as not set', async () => {
    const res = await t.call('POST', `${API}/utm-templates`, {
      json: { name: 'Json', utm_campaign: 'spring sale', utm_term: '', utm_content: 'hero' },
    })
    expectStatus(res, 201)
    expect(res.json().data).toMatchObject({
      utm_source: null,
      utm_campaign: 'spring sale',
      utm_term: null,
      utm_content: 'hero',
    })
  })

  it('raises utm_template.created with the record', async () => {
    const before = events.length
    const made = await create({ name: 'Evented', utm_source: 'x' })
    expect(events.slice(before).map((e) => [e.type, e.data])).toEqual([
      ['utm_template.created', { utm_template: made }],
    ])
  })
})

describe('field rules', () => {
  it('requires a name, also when it is empty', async () => {
    await expect422(await post({ utm_source: 'a' }), { name: ['The name field is required.'] })
    await expect422(await post('name=&utm_source=a'), { name: ['The name field is required.'] })
  })

  it('takes names of 255 characters and values of 255, refusing longer, every field at once', async () => {
    expectStatus(await post({ name: 'n'.repeat(255), utm_source: 's'.repeat(255) }), 201)
    await expect422(
      await post({
        name: 'm'.repeat(256),
        utm_source: 's'.repeat(256),
        utm_content: 'c'.repeat(256),
      }),
      {
        name: ['The name field must not be greater than 255 characters.'],
        utm_source: ['The utm source field must not be greater than 255 characters.'],
        utm_content: ['The utm content field must not be greater than 255 characters.'],
      },
    )
  })

  it('refuses a name the user already has, and allows it for another user', async () => {
    await create({ name: 'Twice' })
    await expect422(await post({ name: 'Twice' }), { name: ['The name has already been taken.'] })
    expectStatus(await post({ name: 'Twice' }, KEY_B), 201)
  })

  it('refuses a value that is not text', async () => {
    const res = await t.call('POST', `${API}/utm-templates`, {
      json: { name: 'Odd', utm_source: ['a'] },
    })
    await expect422(res, { utm_source: ['The utm source field must be a string.'] })
  })
})

describe('update', () => {
  for (const method of ['PUT', 'PATCH'] as const) {
    it(`${method} changes the fields sent, clears an emptied one, and keeps the others`, async () => {
      const made = await create({ name: `Before ${method}`, utm_source: 'a', utm_medium: 'b' })
      const before = events.length
      const res = await t.call(method, `${API}/utm-templates/${made.id}`, {
        form: 'utm_source=fresh&utm_medium=',
      })
      expectStatus(res, 200)
      const data = { ...made, utm_source: 'fresh', utm_medium: null, updated_at: anyTimestamp() }
      expect(res.json()).toEqual({ data, status: 200 })
      expect(await show(t, `utm-templates/${made.id}`)).toEqual(res.json().data)
      expect(events.slice(before).map((e) => [e.type, e.data])).toEqual([
        [
          'utm_template.updated',
          { utm_template: res.json().data, changed: ['utm_source', 'utm_medium'] },
        ],
      ])
    })
  }

  it('refuses the name of another of the user’s templates', async () => {
    await create({ name: 'Occupied' })
    const made = await create({ name: 'Renamer' })
    await expect422(
      await t.call('PATCH', `${API}/utm-templates/${made.id}`, { form: { name: 'Occupied' } }),
      { name: ['The name has already been taken.'] },
    )
    expect(await show(t, `utm-templates/${made.id}`)).toEqual(made)
  })

  it('answers another user’s template as missing, to every operation', async () => {
    const theirs = await create({ name: 'Bob’s' }, KEY_B)
    for (const method of ['GET', 'PATCH', 'PUT', 'DELETE'] as const) {
      const res = await t.call(method, `${API}/utm-templates/${theirs.id}`, {
        ...(method === 'PATCH' || method === 'PUT' ? { form: { utm_source: 'x' } } : {}),
      })
      expectStatus(res, 404)
      expect(res.json(), method).toEqual({ message: 'Resource not found.', status: 404 })
    }
    expect(await show(t, `utm-templates/${theirs.id}`, KEY_B)).toEqual(theirs)
  })
})

describe('missing and deleted records', () => {
  recordTests({
    path: 'utm-templates',
    noun: 'utm_template',
    app: () => t,
    create: () => create({ name: 'Doomed' }),
    update: { utm_source: 'x' },
  })

  it('raises utm_template.deleted with the record', async () => {
    const made = await create({ name: 'Deleted with event' })
    const before = events.length
    expectStatus(await t.call('DELETE', `${API}/utm-templates/${made.id}`), 200)
    expect(events.slice(before).map((e) => [e.type, e.data])).toEqual([
      ['utm_template.deleted', { utm_template: made }],
    ])
  })
})

describe('list', () => {
  const KEY_L = 'test-key-utm-lister-0123456789'
  const S: Rec[] = []

  beforeAll(async () => {
    await t.services.users.createUser({ email: 'utm@example.com', apiKey: KEY_L })
    for (const name of ['Work', 'home_stuff', 'Archive', '50% done', 'workshop']) {
      S.push(await create({ name, utm_source: name }, KEY_L))
    }
  })

  const ids = (...n: number[]) => n.map((i) => S[i]!.id)

  listTests({
    path: 'utm-templates',
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
      ['sort_by=utm_source', { sort_by: ['The selected sort by is invalid.'] }],
      ['search_by=utm_source', { search_by: ['The selected search by is invalid.'] }],
      ['per_page=5', { per_page: ['The selected per page is invalid.'] }],
      ['sort=down', { sort: ['The selected sort is invalid.'] }],
    ],
  })
})
