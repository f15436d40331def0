/**
 * Every list a request body takes has a bound, and a list over it is refused before any of its
 * entries is checked: one 422 message on the list's field, whatever the encoding (form, JSON,
 * multipart), and a small answer. The table comes from the OpenAPI document, so no list of any
 * endpoint is left out. A 422 names at most MAX_REPORTED_FIELDS fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_REPORTED_FIELDS } from '../../src/http/error-handler.js'
import { createTestApp, type TestApp } from '../support/app.js'
import { API, createLink, expectStatus, multipart } from './helpers.js'

interface Schema {
  type?: string | string[]
  properties?: Record<string, Schema>
  items?: Schema
  maxItems?: number
}
interface Operation {
  requestBody?: { content: Record<string, { schema: Schema }> }
}

/** A list field of a body: where it is sent, its name and the shape of its entries. */
interface ListField {
  method: string
  path: string
  name: string
  maxItems: number | undefined
  parts: string[] | null
}

const types = (s: Schema) => (s.type === undefined ? [] : [s.type].flat())

let t: TestApp
const lists: ListField[] = []
const ids: Record<string, number> = {}

beforeAll(async () => {
  t = await createTestApp()
  ids.links = (await createLink(t, { alias: 'bounded' })).id
  const hook = await t.call('POST', `${API}/webhooks`, {
    json: { url: 'https://hooks.example.com/in', events: ['*'] },
  })
  ids.webhooks = (hook.json() as { data: { id: number } }).data.id
  const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> }
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const content = operation.requestBody?.content ?? {}
      const schema = (content['application/json'] ?? Object.values(content)[0])?.schema
      for (const [name, property] of Object.entries(schema?.properties ?? {})) {
        if (!types(property).includes('array')) continue
        const items = property.items ?? {}
        lists.push({
          method: method.toUpperCase(),
          path: path.replace('{id}', String(ids[path.split('/')[3]!])),
          name,
          maxItems: property.maxItems,
          parts: types(items).includes('object') ? Object.keys(items.properties ?? {}) : null,
        })
      }
    }
  }
})
afterAll(async () => {
  await t?.close()
})

/** Bad entries of a list, as form pairs: as many as a form's 2,000 fields allow. */
function pairs(list: ListField): [string, string][] {
  const count = Math.floor(1_900 / (list.parts?.length ?? 1))
  return Array.from({ length: count }, (_, i): [string, string][] =>
    list.parts === null
      ? [[`${list.name}[]`, 'bad!']]
      : list.parts.map((part) => [`${list.name}[${i}][${part}]`, 'bad!']),
  ).flat()
}

/** `count` bad entries of a list, as JSON. */
function entries(list: ListField, count: number): unknown[] {
  const entry =
    list.parts === null ? 'bad!' : Object.fromEntries(list.parts.map((p) => [p, 'bad!']))
  return Array.from({ length: count }, () => entry)
}

const form = (fields: [string, string][]) =>
  fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')

function expectOneMessage(list: ListField, res: Awaited<ReturnType<TestApp['call']>>): void {
  expectStatus(res, 422)
  expect(res.body.length).toBeLessThan(1024)
  const message = (res.json() as { message: Record<string, string[]> }).message
  const words = list.name.replace(/_/g, ' ')
  expect(message[list.name]).toEqual([
    `The ${words} field must not have more than ${list.maxItems} items.`,
  ])
  expect(Object.keys(message).filter((f) => f.startsWith(`${list.name}.`))).toEqual([])
}

describe('lists in request bodies', () => {
  it('are found in the OpenAPI document, and every one has a bound', () => {
    expect(lists.map((l) => `${l.method} ${l.path} ${l.name}`)).toEqual(
      expect.arrayContaining([
        `POST ${API}/links country`,
        `PUT ${API}/links/${ids.links} rotation`,
        `PATCH ${API}/links/${ids.links} pixel_ids`,
        `POST ${API}/webhooks events`,
        `PUT ${API}/webhooks/${ids.webhooks} events`,
      ]),
    )
    expect(lists.filter((l) => l.maxItems === undefined)).toEqual([])
  })

  it('over their bound are one message, in a form body (up to 1,900 bad entries)', async () => {
    for (const list of lists) {
      const res = await t.call(list.method, list.path, { form: form(pairs(list)) })
      expectOneMessage(list, res)
    }
  })

  it('over their bound are one message, in a JSON body (up to 30,000 bad entries)', async () => {
    for (const list of lists) {
      const res = await t.call(list.method, list.path, {
        json: { [list.name]: entries(list, list.parts === null ? 30_000 : 10_000) },
      })
      expectOneMessage(list, res)
    }
  })

  it('over their bound are one message, in a multipart body (up to 1,900 bad entries)', async () => {
    for (const list of lists) {
      const body = multipart(pairs(list))
      const res = await t.call(list.method, list.path, {
        headers: { 'content-type': body.contentType },
        form: body.payload,
      })
      expectOneMessage(list, res)
    }
  })

  it('at their bound still have every entry checked', async () => {
    const res = await t.call('POST', `${API}/links`, {
      json: { url: 'https://example.com/', rotation: [{ value: 'bad!' }, { value: 'also bad' }] },
    })
    expectStatus(res, 422)
    expect(Object.keys((res.json() as { message: object }).message)).toEqual([
      'rotation.0.value',
      'rotation.1.value',
    ])
  })
})

describe('a 422 answer', () => {
  it(`names at most ${MAX_REPORTED_FIELDS} fields, the first ones checked`, async () => {
    const country = Array.from({ length: 100 }, () => ({ key: 'XX', value: 'bad!' }))
    const res = await t.call('POST', `${API}/links`, { json: { url: 'bad!', country } })
    expectStatus(res, 422)
    const fields = Object.keys((res.json() as { message: object }).message)
    expect(fields).toHaveLength(MAX_REPORTED_FIELDS)
    expect(fields.slice(0, 3)).toEqual(['url', 'country.0.key', 'country.0.value'])
    expect(res.body.length).toBeLessThan(10_000)
  })
})
