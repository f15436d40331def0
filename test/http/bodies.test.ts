/** Request bodies: form (bracket nesting), JSON and multipart give the same result; bad bodies. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY_A, createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  countRows,
  createLink,
  createPixel,
  createSpace,
  expectStatus,
  jsonContentType,
  multipart,
  show,
  type Rec,
} from './helpers.js'

let t: TestApp
let space: Rec
let p1: Rec
let p2: Rec

beforeAll(async () => {
  t = await createTestApp()
  space = await createSpace(t, { name: 'Bodies' })
  p1 = await createPixel(t, { name: 'P1' })
  p2 = await createPixel(t, { name: 'P2' })
})
afterAll(() => t.close())

const MALFORMED = { message: 'Malformed request body.', status: 400 }
const NOT_OBJECT = { message: 'The request body must be an object.', status: 400 }
const TOO_DEEP = { message: 'The request body is nested too deeply.', status: 400 }
const TOO_LARGE = { message: 'Payload Too Large.', status: 413 }
const UNSUPPORTED = { message: 'Unsupported Media Type.', status: 415 }

/** The same link, as flat bracket-named fields (form and multipart) and as JSON. */
function linkFields(alias: string): [string, string][] {
  return [
    ['url', 'https://example.com/früh?x=1&y=2'],
    ['domain_id', String(t.defaultDomainId)],
    ['alias', alias],
    ['title', 'Frühling ☀ & more'],
    ['space_id', String(space.id)],
    ['pixel_ids[]', String(p1.id)],
    ['pixel_ids[]', String(p2.id)],
    ['disabled', '1'],
    ['privacy', '2'],
    ['privacy_password', 'statspw'],
    ['password', 'linkpw'],
    ['expiration_url', 'https://example.com/over'],
    ['expiration_date', '2040-05-06'],
    ['expiration_time', '07:08'],
    ['expiration_clicks', '9'],
    ['target_type', '1'],
    ['country[0][key]', 'US'],
    ['country[0][value]', 'https://us.example/'],
    ['country[1][key]', 'DE'],
    ['country[1][value]', 'https://de.example/'],
    ['platform[0][key]', 'OS X'],
    ['platform[0][value]', 'https://mac.example/'],
    ['rotation[0][value]', 'https://r1.example/'],
  ]
}

function linkJson(alias: string) {
  return {
    url: 'https://example.com/früh?x=1&y=2',
    domain_id: t.defaultDomainId,
    alias,
    title: 'Frühling ☀ & more',
    space_id: space.id,
    pixel_ids: [p1.id, p2.id],
    disabled: 1,
    privacy: 2,
    privacy_password: 'statspw',
    password: 'linkpw',
    expiration_url: 'https://example.com/over',
    expiration_date: '2040-05-06',
    expiration_time: '07:08',
    expiration_clicks: 9,
    target_type: 1,
    country: [
      { key: 'US', value: 'https://us.example/' },
      { key: 'DE', value: 'https://de.example/' },
    ],
    platform: [{ key: 'OS X', value: 'https://mac.example/' }],
    rotation: [{ value: 'https://r1.example/' }],
  }
}

const formOf = (fields: [string, string][]) =>
  fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')

/** A record without what differs between two otherwise equal links. */
function comparable(record: Rec) {
  const volatile = ['id', 'alias', 'short_url', 'created_at', 'updated_at']
  return Object.fromEntries(Object.entries(record).filter(([key]) => !volatile.includes(key)))
}

describe('the three encodings', () => {
  it('creates the same link from a form, a JSON and a multipart body', async () => {
    const form = await t.call('POST', `${API}/links`, { form: formOf(linkFields('enc-form')) })
    const json = await t.call('POST', `${API}/links`, { json: linkJson('enc-json') })
    const mp = multipart(linkFields('enc-multipart'))
    const multi = await t.call('POST', `${API}/links`, {
      form: mp.payload,
      headers: { 'content-type': mp.contentType },
    })
    for (const res of [form, json, multi]) expectStatus(res, 201)
    const [a, b, c] = [form, json, multi].map((r) => r.json().data as Rec)
    expect(a).toMatchObject({
      alias: 'enc-form',
      url: 'https://example.com/fr%C3%BCh?x=1&y=2',
      title: 'Frühling ☀ & more',
      disabled: 1,
      privacy: 2,
      privacy_password: true,
      password: true,
      expiration_clicks: 9,
      ends_at: '2040-05-06T07:08:00.000000Z',
      country_target: [
        { key: 'US', value: 'https://us.example/' },
        { key: 'DE', value: 'https://de.example/' },
      ],
      platform_target: [{ key: 'OS X', value: 'https://mac.example/' }],
      rotation_target: [{ value: 'https://r1.example/' }],
    })
    expect((a!.pixels as Rec[]).map((p) => p.id)).toEqual([p1.id, p2.id])
    expect((a!.space as Rec).id).toBe(space.id)
    expect(comparable(b!)).toEqual(comparable(a!))
    expect(comparable(c!)).toEqual(comparable(a!))
    expect(b!.alias).toBe('enc-json')
    expect(c!.alias).toBe('enc-multipart')
  })

  it('updates the same way from a form (PUT), a JSON (PATCH) and a multipart (PATCH) body', async () => {
    const update: [string, string][] = [
      ['title', 'Changed ✓'],
      ['pixel_ids[]', String(p2.id)],
      ['country[0][key]', 'FR'],
      ['country[0][value]', 'https://fr.example/'],
      ['space_id', ''],
    ]
    const results: Rec[] = []
    for (const encoding of ['form', 'json', 'multipart'] as const) {
      const link = await createLink(t, formOf(linkFields(`upd-${encoding}`)))
      const url = `${API}/links/${link.id}`
      let res
      if (encoding === 'form') {
        res = await t.call('PUT', url, { form: formOf(update) })
      } else if (encoding === 'json') {
        res = await t.call('PATCH', url, {
          json: {
            title: 'Changed ✓',
            pixel_ids: [p2.id],
            country: [{ key: 'FR', value: 'https://fr.example/' }],
            space_id: null,
          },
        })
      } else {
        const mp = multipart(update)
        res = await t.call('PATCH', url, {
          form: mp.payload,
          headers: { 'content-type': mp.contentType },
        })
      }
      expectStatus(res, 200)
      results.push(res.json().data as Rec)
    }
    expect(results[0]).toMatchObject({
      title: 'Changed ✓',
      space: null,
      country_target: [{ key: 'FR', value: 'https://fr.example/' }],
      platform_target: [{ key: 'OS X', value: 'https://mac.example/' }],
    })
    expect((results[0]!.pixels as Rec[]).map((p) => p.id)).toEqual([p2.id])
    expect(comparable(results[1]!)).toEqual(comparable(results[0]!))
    expect(comparable(results[2]!)).toEqual(comparable(results[0]!))
  })

  it('accepts indexed pixel_ids (pixel_ids[0]=…) like pixel_ids[]', async () => {
    const res = await t.call('POST', `${API}/links`, {
      form: `url=https%3A%2F%2Fexample.com%2F&domain_id=${t.defaultDomainId}&pixel_ids[0]=${p1.id}&pixel_ids[1]=${p2.id}`,
    })
    expectStatus(res, 201)
    expect(res.json().data.pixels.map((p: Rec) => p.id)).toEqual([p1.id, p2.id])
  })

  it('accepts percent-encoded brackets in form field names', async () => {
    const res = await t.call('POST', `${API}/links`, {
      form:
        `url=https%3A%2F%2Fexample.com%2F&domain_id=${t.defaultDomainId}` +
        `&country%5B0%5D%5Bkey%5D=JP&country%5B0%5D%5Bvalue%5D=https%3A%2F%2Fjp.example%2F`,
    })
    expectStatus(res, 201)
    expect(res.json().data.country_target).toEqual([{ key: 'JP', value: 'https://jp.example/' }])
  })

  it('accepts a form content type with a charset parameter', async () => {
    const res = await t.call('POST', `${API}/spaces`, {
      form: 'name=Charset+%E2%9C%93',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    })
    expectStatus(res, 201)
    expect(res.json().data.name).toBe('Charset ✓')
  })

  it('accepts a JSON content type with a charset parameter', async () => {
    const res = await t.call('POST', `${API}/spaces`, {
      form: JSON.stringify({ name: 'JSON charset' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    expectStatus(res, 201)
  })

  it('accepts a quoted multipart boundary and ignores file parts', async () => {
    const boundary = 'quoted-boundary-123'
    const mp = multipart(
      [
        ['name', 'From multipart'],
        ['color', '4'],
      ],
      [{ name: 'color', filename: 'evil.txt', type: 'text/plain', content: '6' }],
      boundary,
    )
    const res = await t.call('POST', `${API}/spaces`, {
      form: mp.payload,
      headers: { 'content-type': `multipart/form-data; boundary="${boundary}"` },
    })
    expectStatus(res, 201)
    expect(res.json().data).toMatchObject({ name: 'From multipart', color: 4 })
  })

  it('ignores unknown fields in every encoding', async () => {
    const form = await t.call('POST', `${API}/spaces`, { form: { name: 'Unknown f', owner: 9 } })
    expectStatus(form, 201)
    const json = await t.call('POST', `${API}/spaces`, {
      json: { name: 'Unknown j', user_id: t.userB, id: 1 },
    })
    expectStatus(json, 201)
    expect(json.json().data.id).not.toBe(1)
    expect(await show(t, `spaces/${json.json().data.id}`)).toMatchObject({ name: 'Unknown j' })
  })

  it('treats a JSON null like an empty form value (clears an optional field)', async () => {
    const link = await createLink(t, { password: 'pw', expiration_clicks: 3 })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      json: { password: null, expiration_clicks: null },
    })
    expectStatus(res, 200)
    expect(res.json().data).toMatchObject({ password: false, expiration_clicks: null })
  })
})

describe('malformed bodies: 400 with the JSON error shape', () => {
  const post = (payload: string, contentType: string) =>
    t.call('POST', `${API}/links`, { form: payload, headers: { 'content-type': contentType } })

  it.each(['{"url":', '{url: "x"}', "{'a':1}", '{"a":1}}', 'nope'])(
    'answers 400 for the malformed JSON %j',
    async (payload) => {
      const res = await post(payload, 'application/json')
      expectStatus(res, 400)
      jsonContentType(res)
      expect(res.json()).toEqual(MALFORMED)
    },
  )

  it('takes a JSON Content-Type with an empty body (Content-Length: 0) as no body at all', async () => {
    const res = await post('', 'application/json')
    expectStatus(res, 422)
    expect(res.json()).toEqual({
      message: { url: ['The url field is required.'] },
      status: 422,
    })
  })

  it('answers 400 for a JSON body of white space only', async () => {
    const res = await post('  ', 'application/json')
    expectStatus(res, 400)
    expect(res.json()).toEqual(MALFORMED)
  })

  it.each(['[1,2]', '[]', '"a string"', '42', 'true'])(
    'answers 400 for the JSON body %s (not an object)',
    async (payload) => {
      const res = await post(payload, 'application/json')
      expectStatus(res, 400)
      expect(res.json()).toEqual(NOT_OBJECT)
    },
  )

  it('answers 400 for the JSON body null (not an object)', async () => {
    const res = await post('null', 'application/json')
    expectStatus(res, 400)
    expect(res.json()).toEqual(NOT_OBJECT)
  })

  it('answers 400, not 500, for an object nested 10000 levels deep', async () => {
    const res = await post(`${'{"a":'.repeat(10000)}1${'}'.repeat(10000)}`, 'application/json')
    expectStatus(res, 400)
    expect(res.json()).toEqual(TOO_DEEP)
  })

  it('answers 400, not 500, for an array nested 10000 levels deep', async () => {
    const res = await post(`${'['.repeat(10000)}${']'.repeat(10000)}`, 'application/json')
    expectStatus(res, 400)
    expect(res.json()).toEqual(NOT_OBJECT)
  })

  it('answers 400 for a field nested 10000 levels deep inside an object', async () => {
    const res = await post(
      `{"url":"https://example.com/","country":${'['.repeat(10000)}${']'.repeat(10000)}}`,
      'application/json',
    )
    expectStatus(res, 400)
    expect(res.json()).toEqual(TOO_DEEP)
  })

  it('answers 400 for JSON nested deeper than 16 levels, and accepts 16', async () => {
    const nest = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`
    const deep = await post(nest(17), 'application/json')
    expectStatus(deep, 400)
    expect(deep.json()).toEqual(TOO_DEEP)
    const ok = await post(nest(16), 'application/json')
    expectStatus(ok, 422)
  })

  it('answers 400 for form fields nested too deeply', async () => {
    const res = await post(`url=x&a${'[b]'.repeat(20)}=1`, 'application/x-www-form-urlencoded')
    expectStatus(res, 400)
    expect(res.json()).toEqual(MALFORMED)
  })

  it('answers 400 for a multipart body without a boundary', async () => {
    const res = await post('name=x', 'multipart/form-data')
    expectStatus(res, 400)
    expect(res.json()).toEqual(MALFORMED)
  })

  it('answers 400 for a truncated multipart body', async () => {
    const mp = multipart([['url', 'https://example.com/']])
    const res = await post(mp.payload.slice(0, 40), mp.contentType)
    expectStatus(res, 400)
    expect(res.json()).toEqual(MALFORMED)
  })

  it('answers 400 for a JSON body with __proto__', async () => {
    const res = await post('{"__proto__":{"polluted":true},"name":"x"}', 'application/json')
    expectStatus(res, 400)
    expect(res.json()).toEqual(MALFORMED)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('writes nothing for any malformed body', async () => {
    const before = await countRows(t, 'links')
    await post('{"url":', 'application/json')
    await post('[1]', 'application/json')
    expect(await countRows(t, 'links')).toBe(before)
  })
})

describe('size limits: 413', () => {
  const MiB = 1024 * 1024

  it('answers 413 for a form body over 1 MiB', async () => {
    const res = await t.call('POST', `${API}/links`, { form: `url=${'a'.repeat(MiB)}` })
    expectStatus(res, 413)
    jsonContentType(res)
    expect(res.json()).toEqual(TOO_LARGE)
  })

  it('answers 413 for a JSON body over 1 MiB', async () => {
    const res = await t.call('POST', `${API}/links`, { json: { url: 'a'.repeat(MiB) } })
    expectStatus(res, 413)
    expect(res.json()).toEqual(TOO_LARGE)
  })

  it('answers 413 for a multipart body over 1 MiB', async () => {
    const mp = multipart([['url', 'a'.repeat(MiB)]])
    const res = await t.call('POST', `${API}/links`, {
      form: mp.payload,
      headers: { 'content-type': mp.contentType },
    })
    expectStatus(res, 413)
    expect(res.json()).toEqual(TOO_LARGE)
  })

  it('answers 413 for an update body over 1 MiB', async () => {
    const link = await createLink(t, {})
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      json: { title: 'a'.repeat(MiB) },
    })
    expectStatus(res, 413)
    expect(res.json()).toEqual(TOO_LARGE)
  })

  it('accepts a body just under 1 MiB (then validates it)', async () => {
    const res = await t.call('POST', `${API}/spaces`, {
      json: { name: 'Big body', padding: 'p'.repeat(MiB - 100) },
    })
    expectStatus(res, 201)
  })

  it('accepts 2,000 form fields and answers 413 for 2,001', async () => {
    const fields = (n: number) =>
      ['name=Fields+' + String(n), ...Array.from({ length: n - 1 }, (_, i) => `f${i}=1`)].join('&')
    expectStatus(await t.call('POST', `${API}/spaces`, { form: fields(2000) }), 201)
    const res = await t.call('POST', `${API}/spaces`, { form: fields(2001) })
    expectStatus(res, 413)
    expect(res.json()).toEqual(TOO_LARGE)
  })
})

describe('other content types: 415', () => {
  it.each([
    'text/plain',
    'text/plain; charset=utf-8',
    'application/xml',
    'text/xml',
    'text/html',
    'application/octet-stream',
    'application/x-yaml',
  ])('answers 415 for %s', async (contentType) => {
    const res = await t.call('POST', `${API}/spaces`, {
      form: 'name=x',
      headers: { 'content-type': contentType },
    })
    expectStatus(res, 415)
    jsonContentType(res)
    expect(res.json()).toEqual(UNSUPPORTED)
  })

  it.each(['PUT', 'PATCH'] as const)('answers 415 for an XML %s body', async (method) => {
    const space = await createSpace(t, { name: `XML ${method}` })
    const res = await t.call(method, `${API}/spaces/${space.id}`, {
      form: '<space><name>x</name></space>',
      headers: { 'content-type': 'application/xml' },
    })
    expectStatus(res, 415)
    expect(res.json()).toEqual(UNSUPPORTED)
    expect(await show(t, `spaces/${space.id}`)).toEqual(space)
  })

  it('answers 415 for a body without a content type', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/spaces`,
      payload: 'name=x',
      headers: { authorization: `Bearer ${KEY_A}` },
    })
    expectStatus(res, 415)
    expect(res.json()).toEqual(UNSUPPORTED)
  })
})
