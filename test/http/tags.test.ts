/**
 * Tags: on links (create, update, the record), as a resource (the five operations, merge on
 * rename, delete detaching), their statistics, the links list's filter and their events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DomainEvent } from '../../src/events/types.js'
import { KEY_B, createTestApp, type TestApp } from '../support/app.js'
import { clicks, writeClicks } from '../support/clicks.js'
import {
  API,
  BASE,
  NOT_FOUND,
  anyTimestamp,
  createLink,
  expectStatus,
  listIds,
  show,
  validation,
  type Rec,
} from './helpers.js'

let t: TestApp
const events: DomainEvent[] = []
beforeAll(async () => {
  t = await createTestApp()
  t.services.events.afterCommit((event) => {
    if (event.type.startsWith('tag.') || event.type === 'link.updated') events.push(event)
  })
})
afterAll(() => t.close())

/** Another user, with a key of its own, for lists that must hold only what a test made. */
async function newUser(email: string) {
  const key = `test-key-${email.replace(/\W/g, '-')}-0123456789`
  await t.services.users.createUser({ email, name: email, apiKey: key })
  return {
    key,
    app: t,
    call: (method: 'GET' | 'POST', url: string, options: { form?: Record<string, string> } = {}) =>
      t.call(method, url, { ...options, key }),
    createLink: (form: Parameters<typeof createLink>[1]) => createLink(t, form, key),
  }
}

const TAG_FIELDS = ['id', 'name', 'color', 'links', 'created_at', 'updated_at']

async function tagNamed(name: string, key?: string): Promise<Rec> {
  const res = await t.call('GET', `${API}/tags?search=${encodeURIComponent(name)}&per_page=100`, {
    ...(key ? { key } : {}),
  })
  const found = (res.json().data as Rec[]).find((tag) => tag.name === name)
  if (!found) throw new Error(`no tag ${name}`)
  return found
}

describe('tags on links', () => {
  it('stores tags[] with a link: names trimmed, sorted ignoring case, after pixels', async () => {
    const link = await createLink(
      t,
      'url=https%3A%2F%2Fexample.com%2Fa&tags[]=%20zeta%20&tags[]=Alpha&tags[]=beta',
    )
    expect(link.tags).toEqual(['Alpha', 'beta', 'zeta'])
    const keys = Object.keys(link)
    expect(keys.indexOf('tags')).toBe(keys.indexOf('pixels') + 1)
    expect((await show(t, `links/${link.id}`)).tags).toEqual(['Alpha', 'beta', 'zeta'])
  })

  it('takes "tags": [...] in JSON and keeps the first spelling of a name', async () => {
    await createLink(t, { 'tags[]': 'Spring Sale' })
    const res = await t.call('POST', `${API}/links`, {
      json: { url: 'https://example.com/b', tags: ['SPRING SALE', 'spring sale', 'New'] },
    })
    expectStatus(res, 201)
    expect(res.json().data.tags).toEqual(['New', 'Spring Sale'])
  })

  it('replaces the set on update, clears it with an empty value, keeps it when absent', async () => {
    const link = await createLink(t, 'url=https%3A%2F%2Fexample.com%2Fc&tags[]=one&tags[]=two')
    const put = (form: string) => t.call('PATCH', `${API}/links/${link.id}`, { form })
    let res = await put('title=Kept')
    expect(res.json().data.tags).toEqual(['one', 'two'])
    res = await put('tags[]=three&tags[]=One')
    expectStatus(res, 200)
    expect(res.json().data.tags).toEqual(['one', 'three'])
    res = await put('tags=')
    expect(res.json().data.tags).toEqual([])
    await put('tags[]=four')
    res = await put('tags[]=')
    expect(res.json().data.tags).toEqual([])
    expect((await show(t, `links/${link.id}`)).tags).toEqual([])
  })

  it('refuses bad names with 422 on tags.N, and more than 25 with 422 on tags', async () => {
    const res = await t.call('POST', `${API}/links`, {
      json: {
        url: 'https://example.com/d',
        tags: ['ok', '   ', 'a,b', 'x'.repeat(51), 'y'.repeat(50)],
      },
    })
    expectStatus(res, 422)
    expect(res.json()).toEqual(
      validation({
        'tags.1': ['The tags.1 field must be at least 1 characters.'],
        'tags.2': ['The tags.2 field must not contain a comma.'],
        'tags.3': ['The tags.3 field must not be greater than 50 characters.'],
      }),
    )
    const many = Array.from({ length: 26 }, (_, i) => `t${i}`)
    const tooMany = await t.call('POST', `${API}/links`, {
      json: { url: 'https://example.com/d', tags: many },
    })
    expectStatus(tooMany, 422)
    expect(tooMany.json()).toEqual(
      validation({ tags: ['The tags field must not have more than 25 items.'] }),
    )
    const notText = await t.call('POST', `${API}/links`, {
      json: { url: 'https://example.com/d', tags: [{}] },
    })
    expectStatus(notText, 422)
    expect(Object.keys(notText.json().message)).toEqual(['tags.0'])
  })

  it("does not share tags between users: another user's name is a new tag", async () => {
    const mine = await createLink(t, { 'tags[]': 'Private' })
    const theirs = await createLink(t, { 'tags[]': 'private' }, KEY_B)
    expect(mine.tags).toEqual(['Private'])
    expect(theirs.tags).toEqual(['private'])
    expect((await tagNamed('private', KEY_B)).links).toBe(1)
  })
})

describe('the tags resource', () => {
  it('stores, shows and lists a tag with its count of links', async () => {
    const res = await t.call('POST', `${API}/tags`, { form: { name: ' Launch ', color: 4 } })
    expectStatus(res, 201)
    const tag = res.json().data as Rec
    expect(tag).toEqual({
      id: expect.any(Number),
      name: 'Launch',
      color: 4,
      links: 0,
      created_at: anyTimestamp(),
      updated_at: anyTimestamp(),
    })
    expect(Object.keys(tag)).toEqual(TAG_FIELDS)
    await createLink(t, { 'tags[]': 'launch' })
    await createLink(t, { 'tags[]': 'LAUNCH' })
    const shown = await t.call('GET', `${API}/tags/${tag.id}`)
    expect(shown.json()).toEqual({ data: { ...tag, links: 2 }, status: 200 })
  })

  it('refuses a taken name ignoring case, an empty one and one with a comma', async () => {
    await t.call('POST', `${API}/tags`, { form: { name: 'Taken' } })
    for (const [name, message] of [
      ['taken', 'The name has already been taken.'],
      ['a,b', 'The name field must not contain a comma.'],
      ['   ', 'The name field must be at least 1 characters.'],
      ['z'.repeat(51), 'The name field must not be greater than 50 characters.'],
    ] as const) {
      const res = await t.call('POST', `${API}/tags`, { form: { name } })
      expectStatus(res, 422)
      expect(res.json(), name).toEqual(validation({ name: [message] }))
    }
  })

  it('lists with search, sort_by=links|name and per_page; pages keep the filters', async () => {
    const b = await newUser('lister@example.com')
    for (const [name, n] of [
      ['Cats', 3],
      ['dogs', 1],
      ['Birds', 2],
      ['cattle', 0],
    ] as const) {
      await b.call('POST', `${API}/tags`, { form: { name } })
      for (let i = 0; i < n; i++) await b.createLink({ 'tags[]': name })
    }
    const names = async (query: string) =>
      ((await b.call('GET', `${API}/tags?${query}`)).json().data as Rec[]).map((r) => r.name)
    expect(await names('sort_by=links&sort=desc')).toEqual(['Cats', 'Birds', 'dogs', 'cattle'])
    expect(await names('sort_by=name&sort=asc')).toEqual(['Birds', 'Cats', 'cattle', 'dogs'])
    expect(await names('search=CAT&sort_by=name&sort=asc')).toEqual(['Cats', 'cattle'])
    const page = (await b.call('GET', `${API}/tags?search=a&per_page=10&sort_by=links`)).json()
    expect(page.links.first).toBe(`${BASE}/api/v1/tags?search=a&per_page=10&sort_by=links&page=1`)
    const bad = await b.call('GET', `${API}/tags?sort_by=clicks`)
    expectStatus(bad, 422)
    expect(Object.keys(bad.json().message)).toEqual(['sort_by'])
  })

  it('renames a tag onto another name: merged, their links keep one tag', async () => {
    const both = await createLink(
      t,
      'url=https%3A%2F%2Fexample.com%2Fm&tags[]=promo&tags[]=Promotion',
    )
    const onlyOld = await createLink(t, { 'tags[]': 'promo' })
    const onlyNew = await createLink(t, { 'tags[]': 'Promotion' })
    const promo = await tagNamed('promo')
    const promotion = await tagNamed('Promotion')
    events.length = 0
    const res = await t.call('PATCH', `${API}/tags/${promo.id}`, { form: { name: 'PROMOTION' } })
    expectStatus(res, 200)
    expect(res.json().data).toEqual({
      ...promo,
      name: 'PROMOTION',
      links: 3,
      updated_at: anyTimestamp(),
    })
    const gone = await t.call('GET', `${API}/tags/${promotion.id}`)
    expectStatus(gone, 404)
    for (const link of [both, onlyOld, onlyNew]) {
      expect((await show(t, `links/${link.id}`)).tags).toEqual(['PROMOTION'])
    }
    expect(events.map((e) => e.type)).toEqual([
      'link.updated',
      'link.updated',
      'link.updated',
      'tag.deleted',
      'tag.updated',
    ])
    expect(events[0]!.data).toEqual({
      link: expect.objectContaining({ id: both.id, tags: ['PROMOTION'] }),
      changed: ['tags'],
    })
    expect(events[4]!.data).toEqual({
      tag: expect.objectContaining({ id: promo.id, name: 'PROMOTION' }),
      changed: ['name', 'links'],
    })
  })

  it('deletes a tag: its links lose it and stay; link.updated for each, then tag.deleted', async () => {
    const link = await createLink(t, 'url=https%3A%2F%2Fexample.com%2Fx&tags[]=doomed&tags[]=kept')
    const tag = await tagNamed('doomed')
    events.length = 0
    const res = await t.call('DELETE', `${API}/tags/${tag.id}`)
    expectStatus(res, 200)
    expect(res.json()).toEqual({ id: tag.id, object: 'tag', deleted: true, status: 200 })
    expect((await show(t, `links/${link.id}`)).tags).toEqual(['kept'])
    expect(events.map((e) => e.type)).toEqual(['link.updated', 'tag.deleted'])
    expectStatus(await t.call('GET', `${API}/tags/${tag.id}`), 404)
  })

  it("answers another user's tag like a missing one", async () => {
    const tag = await tagNamed('Private')
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.call(method, `${API}/tags/${tag.id}`, { key: KEY_B })
      expectStatus(res, 404)
      expect(res.json()).toEqual(NOT_FOUND)
    }
    const stats = await t.call('GET', `${API}/tags/${tag.id}/stats?name=clicks`, { key: KEY_B })
    expectStatus(stats, 404)
  })

  it('raises tag.created for a tag a link made', async () => {
    events.length = 0
    await createLink(t, { 'tags[]': 'Brand new' })
    expect(events.map((e) => e.type)).toEqual(['tag.created'])
    expect(events[0]!.data).toEqual({
      tag: expect.objectContaining({ name: 'Brand new', color: 1, links: 1 }),
    })
  })
})

describe('tag statistics', () => {
  it("adds up the statistics of the tag's links, in the shape of a link's", async () => {
    const one = await createLink(t, { 'tags[]': 'counted' })
    const two = await createLink(t, { 'tags[]': 'Counted' })
    const other = await createLink(t, { 'tags[]': 'not counted' })
    await writeClicks(t.services.db, [
      ...clicks(2, one.id, '2026-03-01T10:00:00Z', { country: 'DE' }),
      ...clicks(3, two.id, '2026-03-02T10:00:00Z', { country: 'FR' }),
      ...clicks(1, two.id, '2026-03-01T11:00:00Z', { country: 'DE' }),
      ...clicks(7, other.id, '2026-03-01T11:00:00Z', { country: 'US' }),
    ])
    const tag = await tagNamed('counted')
    const res = await t.call(
      'GET',
      `${API}/tags/${tag.id}/stats?name=country&from=2026-03-01&to=2026-03-31`,
    )
    expectStatus(res, 200)
    expect(res.json().data).toEqual([
      { value: 'DE', count: 3 },
      { value: 'FR', count: 3 },
    ])
    expect(res.json().meta.total).toBe(2)
    const days = await t.call(
      'GET',
      `${API}/tags/${tag.id}/stats?name=clicks&from=2026-03-01&to=2026-03-02&sort=asc`,
    )
    expect(days.json().data).toEqual([
      { value: '2026-03-01', count: 3 },
      { value: '2026-03-02', count: 3 },
    ])
    const bad = await t.call('GET', `${API}/tags/${tag.id}/stats?name=nope`)
    expectStatus(bad, 422)
    expect(Object.keys(bad.json().message)).toEqual(['name'])
  })
})

describe('the links list by tag', () => {
  let ids: Record<string, number>
  let user: Awaited<ReturnType<typeof newUser>>
  beforeAll(async () => {
    user = await newUser('filter@example.com')
    ids = {}
    for (const [alias, tags] of [
      ['red-only', ['Red']],
      ['red-blue', ['red', 'Blue']],
      ['blue-only', ['blue']],
      ['none', []],
    ] as const) {
      const query = tags.map((tag) => `tags[]=${tag}`).join('&')
      ids[alias] = (
        await user.createLink(`url=https%3A%2F%2Fexample.com%2F${alias}&alias=${alias}&${query}`)
      ).id
    }
  })

  it.each([
    ['tag=RED', ['red-blue', 'red-only']],
    ['tag[]=red&tag[]=blue', ['blue-only', 'red-blue', 'red-only']],
    ['tag[]=red&tag[]=blue&tag_mode=any', ['blue-only', 'red-blue', 'red-only']],
    ['tag[]=red&tag[]=blue&tag_mode=all', ['red-blue']],
    ['tag[]=red&tag[]=missing&tag_mode=all', []],
    ['tag=missing', []],
    ['tag=', ['none', 'blue-only', 'red-blue', 'red-only']],
    ['tag=blue&search=red&search_by=alias', ['red-blue']],
  ])('%s', async (query, aliases) => {
    const expected = aliases.map((alias) => ids[alias]!).sort((a, b) => b - a)
    expect(await listIds(user.app, `links?${query}&per_page=100`, user.key)).toEqual(expected)
  })

  it('refuses a bad tag_mode with 422', async () => {
    const res = await t.call('GET', `${API}/links?tag=red&tag_mode=some`)
    expectStatus(res, 422)
    expect(Object.keys(res.json().message)).toEqual(['tag_mode'])
  })

  it('keeps tag[] in the page links', async () => {
    const res = await t.call('GET', `${API}/links?tag[]=red&tag[]=blue&per_page=10`, {
      key: user.key,
    })
    expect(decodeURIComponent(res.json().links.first)).toBe(
      `${BASE}/api/v1/links?tag[]=red&tag[]=blue&per_page=10&page=1`,
    )
  })
})
