/**
 * The tests every user's own resource shares (pixels, spaces, domains), run for one resource.
 * `recordTests`: a missing record answers 404 to reading and updating, and a deleted one is gone.
 * `listTests`: the paging envelope, queries (search, filters, sorts) as tables of expected ids,
 * never another user's records, and 422 for each invalid query; call it inside the resource's
 * `describe('list')`, after the `beforeAll` that creates the lister's records.
 */
import { expect, it } from 'vitest'
import type { TestApp } from '../support/app.js'
import { API, BASE, NOT_FOUND, expectStatus, listIds, validation, type Rec } from './helpers.js'

export interface OwnedResource {
  /** The API path segment, e.g. `pixels`. */
  path: 'pixels' | 'spaces' | 'domains' | 'utm-templates'
  /** Its name in test titles and in the `object` of a deletion, e.g. `pixel`. */
  noun: 'pixel' | 'space' | 'domain' | 'utm_template'
  app: () => TestApp
  /** Creates a record with the test key. */
  create: () => Promise<Rec>
  /** A valid update. */
  update: Record<string, string | number>
}

export function recordTests(resource: OwnedResource): void {
  const { path, noun } = resource
  const call = (
    method: 'GET' | 'PUT' | 'PATCH' | 'DELETE',
    id: number,
    form?: Record<string, string | number>,
  ) => resource.app().call(method, `${API}/${path}/${id}`, form ? { form } : {})

  it(`answers 404 for a missing ${noun}`, async () => {
    const res = await call('GET', 999999)
    expectStatus(res, 404)
    expect(res.json()).toEqual(NOT_FOUND)
  })

  it(`answers 404 when updating a missing ${noun}`, async () => {
    for (const method of ['PUT', 'PATCH'] as const) {
      const res = await call(method, 999999, resource.update)
      expectStatus(res, 404)
      expect(res.json(), method).toEqual(NOT_FOUND)
    }
  })

  it(`deletes a ${noun}: 200 {id,object:"${noun}",deleted:true,status:200}`, async () => {
    const record = await resource.create()
    const res = await call('DELETE', record.id)
    expectStatus(res, 200)
    expect(res.json()).toEqual({ id: record.id, object: noun, deleted: true, status: 200 })
    for (const method of ['GET', 'DELETE'] as const) {
      const again = await call(method, record.id)
      expectStatus(again, 404)
      expect(again.json(), method).toEqual(NOT_FOUND)
    }
  })
}

export interface ListedResource {
  /** The API path segment, also the resource's name in test titles. */
  path: 'pixels' | 'spaces' | 'domains' | 'utm-templates'
  app: () => TestApp
  /** The lister's key, and the records it created, oldest first. */
  key: string
  records: () => Rec[]
  /** Records every user sees after their own (the global domains), as listed. */
  shared?: { title: string; records: () => Rec[] }
  /** By test title: the queries (after `per_page=100`) and the ids each lists, in order. */
  queries: Record<string, () => [query: string, ids: number[]][]>
  /** Invalid queries and the 422 message of each. */
  invalid: [query: string, message: Record<string, string[]>][]
}

export function listTests(resource: ListedResource): void {
  const { path, key } = resource
  const shared = () => resource.shared?.records() ?? []
  const list = (query: string) => listIds(resource.app(), `${path}?per_page=100${query}`, key)

  const whose = resource.shared ? `own ${path} and ${resource.shared.title}` : path
  it(`lists the user’s ${whose}, newest first, with the paging envelope`, async () => {
    const res = await resource.app().call('GET', `${API}/${path}`, { key })
    expectStatus(res, 200)
    const data = [...[...resource.records()].reverse(), ...shared()]
    expect(res.json()).toEqual({
      data,
      links: {
        first: `${BASE}/api/v1/${path}?page=1`,
        last: `${BASE}/api/v1/${path}?page=1`,
        prev: null,
        next: null,
      },
      meta: {
        current_page: 1,
        from: 1,
        last_page: 1,
        path: `${BASE}/api/v1/${path}`,
        per_page: 10,
        to: data.length,
        total: data.length,
      },
      status: 200,
    })
  })

  for (const [title, rows] of Object.entries(resource.queries)) {
    it(title, async () => {
      for (const [query, ids] of rows()) expect(await list(query), query).toEqual(ids)
    })
  }

  it(`never lists another user’s ${resource.shared ? 'own ' : ''}${path}`, async () => {
    const mine = new Set(await list(''))
    const others = await listIds(resource.app(), `${path}?per_page=100`)
    expect(others.filter((id) => mine.has(id))).toEqual(shared().map((r) => r.id))
  })

  it.each(resource.invalid)('answers 422 for %s', async (query, message) => {
    const res = await resource.app().call('GET', `${API}/${path}?${query}`, { key })
    expectStatus(res, 422)
    expect(res.json()).toEqual(validation(message))
  })
}
