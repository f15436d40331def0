/** Links: the five operations, the record and its field order, and the update semantics. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  BASE,
  DOMAIN_FIELDS,
  LINK_FIELDS,
  NOT_FOUND,
  PIXEL_FIELDS,
  RANDOM_ALIAS,
  SPACE_FIELDS,
  anyTimestamp,
  createDomain,
  createLink,
  createPixel,
  createSpace,
  defaultDomain,
  expectStatus,
  jsonContentType,
  linkRecord,
  show,
  validation,
  type Rec,
} from './helpers.js'

let t: TestApp
let space: Rec
let otherSpace: Rec
let pixel1: Rec
let pixel2: Rec

beforeAll(async () => {
  t = await createTestApp()
  space = await createSpace(t, { name: 'Campaigns', color: 3 })
  otherSpace = await createSpace(t, { name: 'Newsletters', color: 5 })
  pixel1 = await createPixel(t, { name: 'Shop', type: 'facebook', value: '1234567890' })
  pixel2 = await createPixel(t, { name: 'Ads', type: 'google-ads', value: 'AW-123456' })
})
afterAll(() => t.close())

const spaceRecord = (s: Rec) => ({ ...s, created_at: anyTimestamp(), updated_at: anyTimestamp() })

describe('store', () => {
  it('stores a link with only url and domain_id: HTTP 201 with "status":200 in the body, a random six-character alias and every default', async () => {
    const res = await t.call('POST', `${API}/links`, {
      form: { url: 'https://example.com/landing', domain_id: t.defaultDomainId },
    })
    expectStatus(res, 201)
    jsonContentType(res)
    const body = res.json()
    expect(body).toEqual({
      data: linkRecord(t, expect.stringMatching(RANDOM_ALIAS)),
      status: 200,
    })
    expect(body.data.short_url).toBe(`${BASE}/${body.data.alias}`)
  })

  it('returns link fields in the contract order, with the nested domain, space and pixels in theirs', async () => {
    const link = await createLink(t, {
      alias: 'ordered',
      space_id: space.id,
      'pixel_ids[]': pixel1.id,
    })
    expect(Object.keys(link)).toEqual(LINK_FIELDS)
    expect(Object.keys(link.domain as object)).toEqual(DOMAIN_FIELDS)
    expect(Object.keys(link.space as object)).toEqual(SPACE_FIELDS)
    expect(Object.keys((link.pixels as object[])[0]!)).toEqual(PIXEL_FIELDS)
    expect(Object.keys(await show(t, `links/${link.id}`))).toEqual(LINK_FIELDS)
  })

  it('stores every create field and returns them, with passwords shown only as booleans', async () => {
    const res = await t.call('POST', `${API}/links`, {
      form:
        `url=${encodeURIComponent('https://example.com/spring?utm=x')}&domain_id=${t.defaultDomainId}` +
        `&alias=spring&title=Spring+sale&password=opensesame&space_id=${space.id}` +
        `&pixel_ids[]=${pixel2.id}&pixel_ids[]=${pixel1.id}&disabled=1&privacy=2&privacy_password=statspw` +
        `&expiration_url=${encodeURIComponent('https://example.com/over')}` +
        `&expiration_date=2040-12-31&expiration_time=23:59&expiration_clicks=500&target_type=1` +
        `&country[0][key]=DE&country[0][value]=${encodeURIComponent('https://example.de/')}` +
        `&country[1][key]=FR&country[1][value]=${encodeURIComponent('https://example.fr/')}` +
        `&platform[0][key]=iOS&platform[0][value]=${encodeURIComponent('https://apps.example/ios')}` +
        `&language[0][key]=de&language[0][value]=${encodeURIComponent('https://example.com/de')}` +
        `&rotation[0][value]=${encodeURIComponent('https://a.example/')}` +
        `&rotation[1][value]=${encodeURIComponent('https://b.example/')}`,
    })
    expectStatus(res, 201)
    expect(res.json()).toEqual({
      data: {
        id: expect.any(Number),
        alias: 'spring',
        url: 'https://example.com/spring?utm=x',
        short_url: `${BASE}/spring`,
        title: 'Spring sale',
        target_type: 1,
        country_target: [
          { key: 'DE', value: 'https://example.de/' },
          { key: 'FR', value: 'https://example.fr/' },
        ],
        platform_target: [{ key: 'iOS', value: 'https://apps.example/ios' }],
        language_target: [{ key: 'de', value: 'https://example.com/de' }],
        rotation_target: [{ value: 'https://a.example/' }, { value: 'https://b.example/' }],
        last_rotation: null,
        rules: [],
        disabled: 1,
        privacy: 2,
        privacy_password: true,
        password: true,
        expiration_url: 'https://example.com/over',
        expiration_clicks: 500,
        clicks: 0,
        space: spaceRecord(space),
        domain: defaultDomain(t),
        pixels: [
          { ...pixel1, created_at: anyTimestamp(), updated_at: anyTimestamp() },
          { ...pixel2, created_at: anyTimestamp(), updated_at: anyTimestamp() },
        ],
        tags: [],
        ends_at: '2040-12-31T23:59:00.000000Z',
        created_at: anyTimestamp(),
        updated_at: anyTimestamp(),
        og_title: null,
        og_description: null,
        og_image: null,
      },
      status: 200,
    })
    expect(res.body).not.toContain('opensesame')
    expect(res.body).not.toContain('statspw')
  })

  it('accepts `domain` as the name of domain_id (the seed example sends it)', async () => {
    const res = await t.call('POST', `${API}/links`, {
      form: { url: 'https://example.com/landing', domain: t.defaultDomainId, alias: 'via-domain' },
    })
    expectStatus(res, 201)
    expect(res.json()).toEqual({ data: linkRecord(t, 'via-domain'), status: 200 })
  })

  it('stores a link under one of the user’s own domains, with that domain’s short_url', async () => {
    const domain = await createDomain(t, { name: 'go.links-own.example' })
    const link = await createLink(t, { domain_id: domain.id, alias: 'own' })
    expect(link.short_url).toBe('https://go.links-own.example/own')
    expect(link.domain).toEqual({
      ...domain,
      created_at: anyTimestamp(),
      updated_at: anyTimestamp(),
    })
  })

  it('keeps a title the client sent (title fetching never replaces it)', async () => {
    const link = await createLink(t, { title: 'Hand written' })
    expect(link.title).toBe('Hand written')
  })

  it('creates timestamps in UTC with microseconds, created_at equal to updated_at', async () => {
    const link = await createLink(t, {})
    expect(link.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}000Z$/)
    expect(link.updated_at).toBe(link.created_at)
  })
})

describe('show', () => {
  it('shows a link: 200 {data,status:200} equal to the stored record', async () => {
    const link = await createLink(t, { alias: 'shown', space_id: space.id })
    const res = await t.call('GET', `${API}/links/${link.id}`)
    expectStatus(res, 200)
    jsonContentType(res)
    expect(res.json()).toEqual({ data: link, status: 200 })
  })

  it('answers a create without space or pixels with the record it then shows (its own domain, with pages)', async () => {
    const domain = await createDomain(t, {
      name: 'go.links-same.example',
      index_page: 'https://example.com/home',
      not_found_page: 'https://example.com/missing',
    })
    const forms: Record<string, string | number>[] = [
      { alias: 'same-own', domain_id: domain.id },
      { alias: 'same-default' },
    ]
    for (const form of forms) {
      const created = await createLink(t, form)
      const res = await t.call('GET', `${API}/links/${created.id}`)
      expectStatus(res, 200)
      expect(res.json()).toEqual({ data: created, status: 200 })
    }
  })

  it('answers 404 {"message":"Resource not found.","status":404} for a missing link', async () => {
    const res = await t.call('GET', `${API}/links/999999`)
    expectStatus(res, 404)
    expect(res.json()).toEqual(NOT_FOUND)
  })
})

describe('update', () => {
  for (const method of ['PUT', 'PATCH'] as const) {
    it(`${method} changes the fields sent and leaves every other field as it was`, async () => {
      const link = await createLink(t, {
        alias: `upd-${method.toLowerCase()}`,
        title: 'Before',
        space_id: space.id,
        'pixel_ids[]': pixel1.id,
        disabled: 1,
        expiration_clicks: 7,
      })
      const res = await t.call(method, `${API}/links/${link.id}`, {
        form: { url: 'https://example.com/after', privacy: 1 },
      })
      expectStatus(res, 200)
      expect(res.json()).toEqual({
        data: {
          ...link,
          url: 'https://example.com/after',
          privacy: 1,
          updated_at: anyTimestamp(),
        },
        status: 200,
      })
      expect(await show(t, `links/${link.id}`)).toEqual(res.json().data)
    })
  }

  it('changes the alias, and the short_url with it', async () => {
    const link = await createLink(t, { alias: 'old-alias' })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: { alias: 'new-alias' } })
    expectStatus(res, 200)
    expect(res.json().data).toMatchObject({ alias: 'new-alias', short_url: `${BASE}/new-alias` })
  })

  it('keeps the current alias when the alias is sent empty', async () => {
    const link = await createLink(t, { alias: 'keep-me' })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: 'alias=' })
    expectStatus(res, 200)
    expect(res.json().data.alias).toBe('keep-me')
  })

  it('keeps the link’s own alias when it is sent unchanged', async () => {
    const link = await createLink(t, { alias: 'same-alias' })
    const res = await t.call('PUT', `${API}/links/${link.id}`, { form: { alias: 'same-alias' } })
    expectStatus(res, 200)
    expect(res.json().data.alias).toBe('same-alias')
  })

  it('clears a client title with an empty title', async () => {
    const link = await createLink(t, { title: 'Set by hand' })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: 'title=' })
    expectStatus(res, 200)
    expect(res.json().data.title).toBeNull()
  })

  it('keeps created_at on update', async () => {
    const link = await createLink(t, {})
    const res = await t.call('PUT', `${API}/links/${link.id}`, { form: { title: 'Later' } })
    expect(res.json().data.created_at).toBe(link.created_at)
  })

  it('sets and clears disabled (0/1); absent leaves it alone', async () => {
    const link = await createLink(t, {})
    const on = await t.call('PATCH', `${API}/links/${link.id}`, { form: { disabled: 1 } })
    expect(on.json().data.disabled).toBe(1)
    const untouched = await t.call('PATCH', `${API}/links/${link.id}`, { form: { title: 'x' } })
    expect(untouched.json().data.disabled).toBe(1)
    const off = await t.call('PATCH', `${API}/links/${link.id}`, { form: { disabled: 0 } })
    expect(off.json().data.disabled).toBe(0)
  })

  it('replaces the pixel set with the pixel_ids sent', async () => {
    const link = await createLink(t, { 'pixel_ids[]': pixel1.id })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      form: `pixel_ids[]=${pixel2.id}`,
    })
    expectStatus(res, 200)
    expect((res.json().data.pixels as Rec[]).map((p) => p.id)).toEqual([pixel2.id])
  })

  it.each(['pixel_ids=', 'pixel_ids[]='])('clears the pixel set with an empty %s', async (form) => {
    const link = await createLink(
      t,
      `url=https://example.com/p&domain_id=${t.defaultDomainId}&pixel_ids[]=${pixel1.id}&pixel_ids[]=${pixel2.id}`,
    )
    expect(link.pixels).toHaveLength(2)
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form })
    expectStatus(res, 200)
    expect(res.json().data.pixels).toEqual([])
  })

  it('moves a link to another space and removes the space with an empty space_id', async () => {
    const link = await createLink(t, { space_id: space.id })
    const moved = await t.call('PATCH', `${API}/links/${link.id}`, {
      form: { space_id: otherSpace.id },
    })
    expect(moved.json().data.space).toEqual(spaceRecord(otherSpace))
    const removed = await t.call('PATCH', `${API}/links/${link.id}`, { form: 'space_id=' })
    expectStatus(removed, 200)
    expect(removed.json().data.space).toBeNull()
  })

  it('sets a password and clears it with an empty value', async () => {
    const link = await createLink(t, {})
    const set = await t.call('PATCH', `${API}/links/${link.id}`, { form: { password: 'pw' } })
    expect(set.json().data.password).toBe(true)
    const cleared = await t.call('PATCH', `${API}/links/${link.id}`, { form: 'password=' })
    expectStatus(cleared, 200)
    expect(cleared.json().data.password).toBe(false)
  })

  it('clears the expiry with an empty date and time, and the click limit with an empty value', async () => {
    const link = await createLink(t, {
      expiration_date: '2041-01-02',
      expiration_time: '03:04',
      expiration_clicks: 10,
    })
    expect(link).toMatchObject({ ends_at: '2041-01-02T03:04:00.000000Z', expiration_clicks: 10 })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      form: 'expiration_date=&expiration_time=&expiration_clicks=',
    })
    expectStatus(res, 200)
    expect(res.json().data).toMatchObject({ ends_at: null, expiration_clicks: null })
  })

  it('accepts privacy=2 without a new privacy password when one is already stored', async () => {
    const link = await createLink(t, { privacy_password: 'statspw' })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: { privacy: 2 } })
    expectStatus(res, 200)
    expect(res.json().data).toMatchObject({ privacy: 2, privacy_password: true })
  })

  it('refuses to clear the stored privacy password while privacy stays 2', async () => {
    const link = await createLink(t, { privacy: 2, privacy_password: 'statspw' })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: 'privacy_password=' })
    expectStatus(res, 422)
    expect(res.json()).toEqual(
      validation({
        privacy_password: ['The privacy password field is required when privacy is 2.'],
      }),
    )
  })

  it('accepts domain_id equal to the link’s own domain on update', async () => {
    const link = await createLink(t, { alias: 'same-domain' })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      form: { domain_id: t.defaultDomainId, title: 'ok' },
    })
    expectStatus(res, 200)
    expect(res.json().data).toMatchObject({ title: 'ok', domain: defaultDomain(t) })
  })

  it('refuses a different domain_id on update (422) and keeps the link where it was', async () => {
    const domain = await createDomain(t, { name: 'go.links-move.example' })
    const link = await createLink(t, { alias: 'stay-here' })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      form: { domain_id: domain.id },
    })
    expectStatus(res, 422)
    expect(res.json()).toEqual(validation({ domain_id: ['The domain id cannot be changed.'] }))
    expect(await show(t, `links/${link.id}`)).toEqual(link)
  })

  it('refuses a different `domain` (the accepted name of domain_id) on update too', async () => {
    const domain = await createDomain(t, { name: 'go.links-move2.example' })
    const link = await createLink(t, { alias: 'stay-here-too' })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: { domain: domain.id } })
    expectStatus(res, 422)
    expect(res.json()).toEqual(validation({ domain: ['The domain cannot be changed.'] }))
    expect(await show(t, `links/${link.id}`)).toEqual(link)
  })

  it('answers 404 when updating a missing link, whatever the body', async () => {
    for (const method of ['PUT', 'PATCH'] as const) {
      const res = await t.call(method, `${API}/links/999999`, { form: { url: 'nope' } })
      expectStatus(res, 404)
      expect(res.json()).toEqual(NOT_FOUND)
    }
  })
})

describe('delete', () => {
  it('deletes a link: 200 {id,object:"link",deleted:true,status:200}, then it is gone', async () => {
    const link = await createLink(t, { alias: 'doomed', 'pixel_ids[]': pixel1.id })
    const res = await t.call('DELETE', `${API}/links/${link.id}`)
    expectStatus(res, 200)
    jsonContentType(res)
    expect(res.json()).toEqual({ id: link.id, object: 'link', deleted: true, status: 200 })
    expect(Object.keys(res.json())).toEqual(['id', 'object', 'deleted', 'status'])
    const again = await t.call('GET', `${API}/links/${link.id}`)
    expectStatus(again, 404)
    expect(again.json()).toEqual(NOT_FOUND)
  })

  it('answers 404 when deleting a link twice', async () => {
    const link = await createLink(t, {})
    expectStatus(await t.call('DELETE', `${API}/links/${link.id}`), 200)
    const res = await t.call('DELETE', `${API}/links/${link.id}`)
    expectStatus(res, 404)
    expect(res.json()).toEqual(NOT_FOUND)
  })

  it('frees the alias of a deleted link for a new link', async () => {
    const link = await createLink(t, { alias: 'reusable' })
    expectStatus(await t.call('DELETE', `${API}/links/${link.id}`), 200)
    const again = await createLink(t, { alias: 'reusable' })
    expect(again.alias).toBe('reusable')
  })

  it('keeps the pixels and the space of a deleted link', async () => {
    const link = await createLink(t, { space_id: space.id, 'pixel_ids[]': pixel1.id })
    expectStatus(await t.call('DELETE', `${API}/links/${link.id}`), 200)
    expect(await show(t, `spaces/${space.id}`)).toEqual(space)
    expect(await show(t, `pixels/${pixel1.id}`)).toEqual(pixel1)
  })
})
