/**
 * No input makes the API answer 5xx, and a rejected request changes nothing stored. One table,
 * built from the OpenAPI document so that no endpoint, field or parameter is left out: every
 * scalar body field (nested ones too, such as `country[0][key]`), every query parameter and every
 * path id gets huge, negative, fractional, exponent, hex and empty values, a list, an object, and
 * `__proto__` / `constructor` keys. Integer fields answer 422 naming the field for every one of
 * the numeric spellings; a list or an object where a scalar belongs is always a 422 naming it.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { API, createDomain, createLink, createPixel, createSpace } from './helpers.js'

interface Schema {
  type?: string | string[]
  properties?: Record<string, Schema>
  items?: Schema
  minimum?: number
}
interface Operation {
  parameters?: { in: string; name: string; schema: Schema }[]
  requestBody?: { content: Record<string, { schema: Schema }> }
}

/** A scalar input: its form name (`country[0][key]`), its name in messages, and its type. */
interface Scalar {
  form: string
  field: string
  integer: boolean
}

const types = (s: Schema) => (s.type === undefined ? [] : [s.type].flat())

function scalarsOf(schema: Schema): Scalar[] {
  const out: Scalar[] = []
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const t = types(property)
    if (t.includes('array')) {
      const items = property.items ?? {}
      if (types(items).includes('object')) {
        for (const [part, sub] of Object.entries(items.properties ?? {})) {
          out.push({
            form: `${name}[0][${part}]`,
            field: `${name}.0.${part}`,
            integer: types(sub).includes('integer'),
          })
        }
      } else {
        out.push({
          form: `${name}[0]`,
          field: `${name}.0`,
          integer: types(items).includes('integer'),
        })
      }
    } else {
      out.push({ form: name, field: name, integer: t.includes('integer') })
    }
  }
  return out
}

/** Numeric spellings an integer field must refuse (none is a decimal integer in range). */
const NUMERIC = ['9'.repeat(400), '-1', '1.5', '1e3', '1e309', '0x10']
/** The rest: must never be a 5xx. */
const OTHER = ['', 'x'.repeat(3000), '__proto__', 'constructor']

/** A list or an object is reported; keys that would reach a prototype are dropped by the parser. */
const STRUCTURED = (form: string) => [
  { body: `${form}[]=1`, shape: 'a list', named: true },
  { body: `${form}[a]=1`, shape: 'an object', named: true },
  { body: `${form}[__proto__][polluted]=1`, shape: 'a __proto__ key', named: false },
  { body: `${form}[constructor][prototype][polluted]=1`, shape: 'a constructor key', named: false },
]

let t: TestApp
const ids: Record<string, number> = {}
const operations: { method: string; path: string; op: Operation }[] = []

/**
 * A fingerprint of what is stored: per table, the number of rows and the latest change. Every
 * write the API makes adds or removes a row or moves `updated_at`.
 */
async function snapshot(): Promise<string> {
  const row = await sql<Record<string, unknown>>`SELECT
    (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM api_keys) AS keys,
    (SELECT count(*) || '/' || coalesce(max(updated_at), 0) FROM domains) AS domains,
    (SELECT count(*) || '/' || coalesce(max(updated_at), 0) FROM spaces) AS spaces,
    (SELECT count(*) || '/' || coalesce(max(updated_at), 0) FROM pixels) AS pixels,
    (SELECT count(*) || '/' || coalesce(max(updated_at), 0) || '/' || coalesce(sum(id), 0) FROM links) AS links,
    (SELECT count(*) || '/' || coalesce(sum(link_id * 7 + pixel_id), 0) FROM link_pixels) AS link_pixels,
    (SELECT count(*) || '/' || coalesce(max(updated_at), 0) FROM tags) AS tags,
    (SELECT count(*) || '/' || coalesce(sum(link_id * 7 + tag_id), 0) FROM link_tags) AS link_tags,
    (SELECT count(*) || '/' || coalesce(max(updated_at), 0) FROM utm_templates) AS utm_templates`.execute(
    t.services.db.kysely,
  )
  return JSON.stringify(row.rows[0])
}

function concrete(path: string): string {
  const resource = path.split('/')[3]!
  return path
    .replace('{id}', String(ids[resource === 'stats' ? 'links' : resource]))
    .replace('{delivery}', String(ids.deliveries))
}

const encode = (form: string, value: string) =>
  `${encodeURIComponent(form).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(value)}`

beforeAll(async () => {
  t = await createTestApp()
  // A webhook first, so that the changes below leave deliveries in its log.
  const hook = await t.call('POST', `${API}/webhooks`, {
    json: { url: 'https://hooks.example.com/in', events: ['*'] },
  })
  ids.webhooks = (hook.json() as { data: { id: number } }).data.id
  ids.links = (await createLink(t, { alias: 'target' })).id
  ids.pixels = (await createPixel(t, { name: 'Shop' })).id
  ids.spaces = (await createSpace(t, { name: 'Work' })).id
  ids.domains = (await createDomain(t, { name: 'mine.example' })).id
  const tagged = await t.call('POST', `${API}/tags`, { json: { name: 'Launch' } })
  ids.tags = (tagged.json() as { data: { id: number } }).data.id
  const template = await t.call('POST', `${API}/utm-templates`, {
    json: { name: 'Newsletter', utm_source: 'newsletter' },
  })
  ids['utm-templates'] = (template.json() as { data: { id: number } }).data.id
  ids.imports = (
    await t.services.imports.begin(t.userA, {
      source: 'csv',
      origin: 'links.csv',
      scope: 'csv',
      dryRun: true,
      onConflict: 'skip',
    })
  ).id
  ids.deliveries = (
    await t.services.db.kysely
      .selectFrom('webhook_outbox')
      .select('id')
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).id
  const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> }
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!path.startsWith(API)) continue
    for (const [method, op] of Object.entries(ops)) operations.push({ method, path, op })
  }
})
afterAll(async () => {
  await t?.close()
})

describe('hostile input, over every endpoint of the OpenAPI document', () => {
  it('covers every API route', () => {
    // Five operations (PUT and PATCH apart) for seven resources, account, stats (of a link and of
    // a tag), the webhooks' secret, test, delivery log and re-send, the links export, QR code and
    // duplicate, and three for imports.
    expect(operations.length).toBe(55)
  })

  it('answers every scalar body field, query parameter and path id without a 5xx; integers refuse every non-decimal spelling; lists and objects for scalars are 422 naming the field; nothing changes on a refusal', async () => {
    const failures: string[] = []
    let checked = 0
    let stored = await snapshot()
    const send = async (method: string, url: string, body: string | null) => {
      const res = await t.call(
        method.toUpperCase() as 'GET',
        url,
        body === null ? {} : { form: body },
      )
      checked++
      if (res.statusCode >= 500) failures.push(`${method} ${url} ${body ?? ''}: ${res.statusCode}`)
      // Reads are answered without writing; every write is compared with what was stored.
      if (method === 'get') return res
      const now = await snapshot()
      if (res.statusCode >= 400 && now !== stored)
        failures.push(`${method} ${url} ${body ?? ''}: ${res.statusCode} but data changed`)
      stored = now
      return res
    }
    const expectNamed = (res: Awaited<ReturnType<typeof send>>, field: string, what: string) => {
      const message = res.statusCode === 422 ? (res.json().message as object) : {}
      if (!Object.keys(message).some((k) => k === field || k.startsWith(`${field}.`)))
        failures.push(`${what}: expected 422 naming ${field}, got ${res.statusCode} ${res.body}`)
    }

    for (const { method, path, op } of operations) {
      const url = concrete(path)
      // Path ids: anything but a plain number names no resource.
      if (path.includes('{id}')) {
        for (const bad of [...NUMERIC, 'abc', '__proto__']) {
          const res = await send(method, path.replace('{id}', encodeURIComponent(bad)), null)
          if (res.statusCode !== 404)
            failures.push(`${method} ${path} id=${bad}: expected 404, got ${res.statusCode}`)
        }
      }
      const query = (op.parameters ?? []).filter((p) => p.in === 'query')
      const params = query.map((p) => ({
        form: p.name,
        field: p.name,
        integer: types(p.schema).includes('integer'),
        list: types(p.schema).includes('array'),
      }))
      const body = op.requestBody?.content['application/x-www-form-urlencoded']?.schema
      const fields = body ? scalarsOf(body) : []
      const inputs = [
        ...params.map((p) => ({ ...p, place: 'query' as const })),
        ...fields.map((f) => ({ ...f, place: 'body' as const })),
      ]
      for (const input of inputs) {
        const at = (text: string) =>
          input.place === 'query'
            ? send(method, `${url}${url.includes('?') ? '&' : '?'}${text}`, null)
            : send(method, url, text)
        // Stats need a name; it is the parameter under test when it is the one changed.
        const withName = (text: string) =>
          path.endsWith('stats/{id}') && input.form !== 'name' ? `name=clicks&${text}` : text
        for (const value of NUMERIC) {
          const res = await at(withName(encode(input.form, value)))
          if (input.integer)
            expectNamed(res, input.field, `${method} ${path} ${input.form}=${value.slice(0, 20)}`)
        }
        for (const value of OTHER) await at(withName(encode(input.form, value)))
        for (const { body: text, shape, named } of STRUCTURED(input.form)) {
          const res = await at(withName(text))
          // A list parameter (the links' `tag`) takes a list; any other shape is checked.
          const takesIt = 'list' in input && input.list && shape === 'a list'
          if (named && !takesIt)
            expectNamed(res, input.field, `${method} ${path} ${input.form} as ${shape}`)
        }
      }
    }
    expect(failures).toEqual([])
    expect(checked).toBeGreaterThan(1500)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  }, 180_000)

  it('refuses JSON numbers that are not finite or not whole, and JSON lists or objects for scalars', async () => {
    const link = ids.links!
    const cases: [string, string][] = [
      ['{"expiration_clicks": 1e400}', 'expiration_clicks'],
      ['{"expiration_clicks": -1e400}', 'expiration_clicks'],
      ['{"expiration_clicks": 1.5}', 'expiration_clicks'],
      ['{"disabled": [1]}', 'disabled'],
      ['{"url": {"a": "https://example.com"}}', 'url'],
    ]
    for (const [payload, field] of cases) {
      const before = await snapshot()
      const res = await t.app.inject({
        method: 'PATCH',
        url: `${API}/links/${link}`,
        headers: {
          authorization: 'Bearer test-key-user-a-0123456789',
          'content-type': 'application/json',
        },
        payload,
      })
      expect(res.statusCode, payload).toBe(422)
      expect(Object.keys(res.json().message), payload).toEqual([field])
      expect(await snapshot()).toBe(before)
    }
  })

  it.each([
    '{"space_id": {"__proto__": {"polluted": 1}}}',
    '{"constructor": {"prototype": {"polluted": 1}}}',
  ])('refuses the JSON body %s as malformed (400), changing nothing', async (payload) => {
    const before = await snapshot()
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${API}/links/${ids.links!}`,
      headers: {
        authorization: 'Bearer test-key-user-a-0123456789',
        'content-type': 'application/json',
      },
      payload,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: 'Malformed request body.', status: 400 })
    expect(await snapshot()).toBe(before)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
