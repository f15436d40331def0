/**
 * What real phpShort clients send, and rely on: older parameter names, a doubled
 * Authorization header, bodiless requests with a Content-Type, parameters in the query string
 * of a write, and today's phpShort names of two statistics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY_A, createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  UNAUTHENTICATED,
  createLink,
  createSpace,
  expectStatus,
  listIds,
  validation,
  type Rec,
} from './helpers.js'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('phpShort 2.x names', () => {
  it('takes `space` for space_id on create and update', async () => {
    const work = await createSpace(t, { name: 'Work' })
    const home = await createSpace(t, { name: 'Home' })
    const created = await t.call('POST', `${API}/links`, {
      form: { url: 'https://example.com/a', space: work.id },
    })
    expectStatus(created, 201)
    expect(created.json().data.space.id).toBe(work.id)
    const id = created.json().data.id as number
    const updated = await t.call('PATCH', `${API}/links/${id}`, { form: { space: home.id } })
    expectStatus(updated, 200)
    expect(updated.json().data.space.id).toBe(home.id)
    const cleared = await t.call('PUT', `${API}/links/${id}`, { form: 'space=' })
    expect(cleared.json().data.space).toBeNull()
  })

  it('lets space_id win over space when both are sent', async () => {
    const a = await createSpace(t, { name: 'Winner' })
    const b = await createSpace(t, { name: 'Loser' })
    const res = await t.call('POST', `${API}/links`, {
      form: { url: 'https://example.com/b', space_id: a.id, space: b.id },
    })
    expect(res.json().data.space.id).toBe(a.id)
  })

  it('names the field `space` in validation messages when the client sent `space`', async () => {
    const res = await t.call('POST', `${API}/links`, {
      form: { url: 'https://example.com/c', space: 999999 },
    })
    expect(res.json()).toEqual(validation({ space: ['The selected space is invalid.'] }))
    const typed = await t.call('POST', `${API}/links`, {
      form: { url: 'https://example.com/c', space: 'abc' },
    })
    expect(typed.json()).toEqual(validation({ space: ['The space field must be an integer.'] }))
    const listed = await t.call('GET', `${API}/links?space=-1`)
    expect(listed.json()).toEqual(validation({ space: ['The space field must be at least 0.'] }))
  })

  it('filters lists with `space`, `domain` and `by`', async () => {
    const space = await createSpace(t, { name: 'Filtered' })
    const inSpace = await createLink(t, { alias: 'in-space', space_id: space.id, title: 'Zebra' })
    await createLink(t, { alias: 'no-space', title: 'Zebra too' })
    expect(await listIds(t, `links?space=${space.id}`)).toEqual([inSpace.id])
    expect(await listIds(t, `links?domain=${t.defaultDomainId}&by=alias&search=in-spa`)).toEqual([
      inSpace.id,
    ])
    // `by` is read on every list: a bad value is refused under its own name.
    const pixels = await t.call('GET', `${API}/pixels?by=name&search=x`)
    expectStatus(pixels, 200)
    expect((await t.call('GET', `${API}/pixels?by=type`)).json()).toEqual(
      validation({ by: ['The selected by is invalid.'] }),
    )
    expect((await t.call('GET', `${API}/spaces?by=color`)).json()).toEqual(
      validation({ by: ['The selected by is invalid.'] }),
    )
  })

  it('sorts by clicks with sort=max (most first) and sort=min (fewest first)', async () => {
    const few = await createLink(t, { alias: 'few-clicks', title: 'sortcase' })
    const many = await createLink(t, { alias: 'many-clicks', title: 'sortcase' })
    await t.services.db.kysely
      .updateTable('links')
      .set({ clicks: 5 })
      .where('id', '=', many.id)
      .execute()
    await t.services.db.kysely
      .updateTable('links')
      .set({ clicks: 1 })
      .where('id', '=', few.id)
      .execute()
    const url = `links?search=sortcase&sort=`
    expect(await listIds(t, `${url}max`)).toEqual([many.id, few.id])
    expect(await listIds(t, `${url}min`)).toEqual([few.id, many.id])
  })

  it('still refuses other invalid list values', async () => {
    expect((await t.call('GET', `${API}/links?sort=up`)).json()).toEqual(
      validation({ sort: ['The selected sort is invalid.'] }),
    )
    expect((await t.call('GET', `${API}/links?by=colour`)).json()).toEqual(
      validation({ by: ['The selected by is invalid.'] }),
    )
  })
})

describe('the bearer token', () => {
  it.each([
    ['Authorization: Bearer KEY', 200],
    ['bearer KEY', 200],
    ['BEARER KEY', 200],
    ['Token x, Bearer KEY', 200],
    ['Bearer wrong, Bearer KEY', 200],
    ['Bearer KEY, realm=x', 200],
    ['Bearer', 401],
    ['Basic KEY', 401],
    ['BearerKEY', 401],
  ])('reads the text after the last `Bearer ` of %j', async (header, status) => {
    const res = await t.call('GET', `${API}/account`, {
      key: null,
      headers: { authorization: header.replace('KEY', KEY_A) },
    })
    expectStatus(res, status)
    if (status === 401) expect(res.json()).toEqual(UNAUTHENTICATED)
    else expect(res.json().data.email).toBe('a@example.com')
  })
})

describe('requests without a body', () => {
  it.each(['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'image/png'])(
    'deletes normally with Content-Type %s and no body',
    async (type) => {
      const link = await createLink(t, {})
      const res = await t.call('DELETE', `${API}/links/${link.id}`, {
        headers: { 'content-type': type },
      })
      expectStatus(res, 200)
      expect(res.json()).toEqual({ id: link.id, object: 'link', deleted: true, status: 200 })
    },
  )

  it('takes a PATCH with Content-Type JSON and Content-Length 0 as an empty update', async () => {
    const link = await createLink(t, { alias: 'untouched' })
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${API}/links/${link.id}`,
      headers: {
        authorization: `Bearer ${KEY_A}`,
        'content-type': 'application/json',
        'content-length': '0',
      },
    })
    expectStatus(res, 200)
    expect(res.json().data.alias).toBe('untouched')
  })
})

describe('parameters in the query string of a write', () => {
  it('changes the link from the query string of a PUT with an empty body', async () => {
    const link = await createLink(t, {})
    const res = await t.call('PUT', `${API}/links/${link.id}?url=https://example.com/from-query`)
    expectStatus(res, 200)
    expect(res.json().data.url).toBe('https://example.com/from-query')
    const shown = await t.call('GET', `${API}/links/${link.id}`)
    expect(shown.json().data.url).toBe('https://example.com/from-query')
  })

  it('lets the body win a clash with the query string, and merges the rest', async () => {
    const res = await t.call(
      'POST',
      `${API}/links?url=https://example.com/query&alias=from-query&country[0][key]=DE&country[0][value]=https://example.de/`,
      { form: { url: 'https://example.com/body' } },
    )
    expectStatus(res, 201)
    const data = res.json().data as Rec
    expect(data.url).toBe('https://example.com/body')
    expect(data.alias).toBe('from-query')
    expect(data.country_target).toEqual([{ key: 'DE', value: 'https://example.de/' }])
  })

  it('validates query-string input like body input', async () => {
    const link = await createLink(t, {})
    const res = await t.call('PATCH', `${API}/links/${link.id}?url=javascript:alert(1)`)
    expect(res.json()).toEqual(validation({ url: ['The url field must be a valid URL.'] }))
  })
})

describe('statistics names of today’s phpShort', () => {
  it.each([
    ['click', 'clicks'],
    ['operating_system', 'platform'],
  ])('answers name=%s exactly as name=%s', async (theirs, ours) => {
    const link = await createLink(t, {})
    const range = 'from=2026-01-01&to=2026-01-31'
    const a = await t.call('GET', `${API}/stats/${link.id}?name=${theirs}&${range}`)
    const b = await t.call('GET', `${API}/stats/${link.id}?name=${ours}&${range}`)
    expectStatus(a, 200)
    expect(a.json().data).toEqual(b.json().data)
    expect(a.json().meta.total).toBe(b.json().meta.total)
  })
})
