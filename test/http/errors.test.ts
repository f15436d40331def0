/** Routing errors: unknown API paths, wrong methods, malformed ids, and server errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  METHOD_NOT_ALLOWED,
  NOT_FOUND,
  createLink,
  expectStatus,
  jsonContentType,
} from './helpers.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('unknown paths', () => {
  it.each([
    '/api/v1/nope',
    '/api/v1/links/1/extra',
    '/api/v1/link',
    '/api/v1/stats-nope',
    '/api/v1',
    '/api/v2/links',
    '/api/v1/users',
  ])('answers 404 JSON for GET %s', async (path) => {
    const res = await t.call('GET', path)
    expectStatus(res, 404)
    jsonContentType(res)
    expect(res.json()).toEqual(NOT_FOUND)
  })

  it.each(['POST', 'DELETE', 'PATCH'] as const)(
    'answers 404 JSON for %s of an unknown API path',
    async (method) => {
      const res = await t.call(method, '/api/v1/nothing/here', { form: { a: 1 } })
      expectStatus(res, 404)
      expect(res.json()).toEqual(NOT_FOUND)
    },
  )
})

describe('wrong method', () => {
  it.each([
    ['PATCH', '/api/v1/links', 'GET, HEAD, POST'],
    ['PUT', '/api/v1/pixels', 'GET, HEAD, POST'],
    ['DELETE', '/api/v1/spaces', 'GET, HEAD, POST'],
    ['DELETE', '/api/v1/domains', 'GET, HEAD, POST'],
    ['POST', '/api/v1/links/1', 'DELETE, GET, HEAD, PATCH, PUT'],
    ['POST', '/api/v1/pixels/abc', 'DELETE, GET, HEAD, PATCH, PUT'],
    ['POST', '/api/v1/account', 'GET, HEAD'],
    ['DELETE', '/api/v1/account', 'GET, HEAD'],
  ] as const)('answers 405 for %s %s with Allow: %s', async (method, path, allow) => {
    const res = await t.call(method, path, { form: { a: 1 } })
    expectStatus(res, 405)
    expect(res.headers.allow).toBe(allow)
    jsonContentType(res)
    expect(res.json()).toEqual(METHOD_NOT_ALLOWED)
  })
})

describe('malformed and out-of-range ids', () => {
  const RESOURCES = ['links', 'pixels', 'spaces', 'domains']
  const IDS = ['abc', '1.5', '-1', '0x10', '1e3', '%20', '99999999999999999999999', '0']

  for (const resource of RESOURCES) {
    it.each(IDS)(`answers 404 for GET /api/v1/${resource}/%s`, async (id) => {
      const res = await t.call('GET', `${API}/${resource}/${id}`)
      expectStatus(res, 404)
      expect(res.json()).toEqual(NOT_FOUND)
    })
  }

  it.each(['PUT', 'PATCH', 'DELETE'] as const)(
    'answers 404 (not 422) for %s of a non-numeric id, whatever the body',
    async (method) => {
      const res = await t.call(method, `${API}/links/abc`, {
        ...(method === 'DELETE' ? {} : { form: { url: 'javascript:alert(1)' } }),
      })
      expectStatus(res, 404)
      expect(res.json()).toEqual(NOT_FOUND)
    },
  )

  it('answers 404 for the largest 64-bit id and beyond', async () => {
    for (const id of ['9223372036854775807', '9223372036854775808', '1'.repeat(400)]) {
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await t.call(method, `${API}/links/${id}`)
        expectStatus(res, 404)
        expect(res.json()).toEqual(NOT_FOUND)
      }
    }
  })
})

describe('server errors', () => {
  it('answers 500 {"message":"Server Error.","status":500} without any detail when storage fails', async () => {
    const broken = await createTestApp()
    try {
      const link = await createLink(broken, {})
      await broken.services.db.kysely.schema.dropTable('link_pixels').execute()
      const res = await broken.call('GET', `${API}/links/${link.id}`)
      expectStatus(res, 500)
      jsonContentType(res)
      expect(res.json()).toEqual({ message: 'Server Error.', status: 500 })
      expect(res.body).not.toMatch(/link_pixels|SQLITE|sql|stack|at /i)
    } finally {
      await broken.close()
    }
  })
})
