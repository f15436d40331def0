/**
 * `GET /api/v1/links/{id}` over a real connection is answered before the framework
 * (links/show-fast-path.ts): the same status, headers and bytes as the framework route, which
 * `inject()` still reaches. Whether a route handler of the framework ran is seen on the
 * framework's own diagnostics channel, so a test of "answered outside the framework" can fail.
 * (A 401 comes from the framework's key hook, before any handler: it is told apart by its
 * `WWW-Authenticate` header, which the fast path never sends.)
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { KEY_A, KEY_B, createTestApp, type TestApp } from '../support/app.js'
import { send } from '../support/server.js'
import {
  API,
  NOT_FOUND,
  TOO_MANY,
  UNAUTHENTICATED,
  createLink,
  createPixel,
  createSpace,
  type Rec,
} from './helpers.js'

interface Answer {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: string
}

/** The URLs the framework's route handlers ran for, in order. */
const handled: string[] = []
const onHandler = (message: unknown) => {
  handled.push((message as { request: { url: string } }).request.url)
}
beforeAll(() => subscribe('tracing:fastify.request.handler:start', onHandler))
afterAll(() => unsubscribe('tracing:fastify.request.handler:start', onHandler))
beforeEach(() => {
  handled.length = 0
})

async function listening(env: Record<string, string> = {}): Promise<{ t: TestApp; port: number }> {
  const t = await createTestApp(env)
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const address = t.app.server.address()
  return { t, port: typeof address === 'object' && address ? address.port : 0 }
}

/** A request over a real connection (test/support/server.ts). */
function overHttp(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return send(port, path, { method, headers })
}

async function framework(
  t: TestApp,
  path: string,
  headers: Record<string, string> = {},
  method: 'GET' | 'HEAD' = 'GET',
): Promise<Answer> {
  const res = await t.app.inject({ method, url: path, headers })
  return { status: res.statusCode, headers: res.headers, body: res.body }
}

/** The headers an answer carries, without the ones the connection adds (date, keep-alive). */
function own(headers: Answer['headers']): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !['date', 'connection', 'keep-alive'].includes(name),
    ),
  )
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

describe('without a rate limit', () => {
  let t: TestApp
  let port: number
  let links: Rec[]
  beforeAll(async () => {
    ;({ t, port } = await listening({ API_RATE_LIMIT: '0' }))
    const space = await createSpace(t, { name: 'Launch', color: 3 })
    const pixel1 = await createPixel(t, { name: 'Ads', type: 'google-ads', value: 'AW-1' })
    const pixel2 = await createPixel(t, { name: 'Meta', value: '987654321' })
    const u = encodeURIComponent
    links = [
      await createLink(t, {}),
      await createLink(t, {
        url: 'https://example.com/gr%C3%BC%C3%9Fe?q=%E2%98%83&x=%3C/script%3E',
        title: 'Ünïcödé "title" </script> \u2028 \\ back',
        alias: 'Fast-1',
      }),
      await createLink(
        t,
        `url=${u('https://example.com/spring?utm=x')}&domain_id=${t.defaultDomainId}` +
          `&alias=spring&title=Spring+sale&password=opensesame&space_id=${space.id}` +
          `&pixel_ids[]=${pixel2.id}&pixel_ids[]=${pixel1.id}&disabled=1&privacy=2` +
          `&privacy_password=statspw&expiration_url=${u('https://example.com/over')}` +
          `&expiration_date=2040-12-31&expiration_time=23:59&expiration_clicks=500` +
          `&target_type=1&country[0][key]=DE&country[0][value]=${u('https://example.de/')}` +
          `&platform[0][key]=iOS&platform[0][value]=${u('https://apps.example/ios')}` +
          `&language[0][key]=fr&language[0][value]=${u('https://example.fr/')}` +
          `&rotation[0][value]=${u('https://rot.example/a')}`,
      ),
    ]
  })
  afterAll(() => t.close())

  it('answers each link outside the framework with the framework route’s status, headers and bytes', async () => {
    for (const link of links) {
      const path = `${API}/links/${link.id}`
      const fast = await overHttp(port, path, bearer(KEY_A))
      expect(handled, path).toEqual([])
      const slow = await framework(t, path, bearer(KEY_A))
      expect(handled, path).toEqual([path])
      handled.length = 0
      expect(fast.status).toBe(200)
      expect(fast.body).toBe(slow.body)
      expect(own(fast.headers)).toEqual(own(slow.headers))
      expect(own(fast.headers)).toEqual({
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(fast.body)),
      })
      expect(JSON.parse(fast.body)).toEqual({ data: link, status: 200 })
    }
  })

  it('takes the key wherever the framework takes it (any case, a repeated header name)', async () => {
    const path = `${API}/links/${links[0]!.id}`
    for (const authorization of [
      `bearer ${KEY_A}`,
      `Authorization: Bearer ${KEY_A}`,
      `BEARER   ${KEY_A}  `,
    ]) {
      const fast = await overHttp(port, path, { authorization })
      expect(fast.status, authorization).toBe(200)
      expect(fast.body).toBe((await framework(t, path, bearer(KEY_A))).body)
    }
    expect(handled).toEqual([path, path, path])
  })

  it('reads an id with leading zeros as the route does', async () => {
    const path = `${API}/links/000${links[0]!.id}`
    const fast = await overHttp(port, path, bearer(KEY_A))
    expect(handled).toEqual([])
    expect(fast.status).toBe(200)
    expect(fast.body).toBe((await framework(t, path, bearer(KEY_A))).body)
    expect(JSON.parse(fast.body)).toEqual({ data: links[0], status: 200 })
  })

  it('leaves every other answer to the framework, which gives it as before', async () => {
    const id = links[0]!.id
    const cases: [string, Record<string, string>, number, unknown][] = [
      [`${API}/links/${id}`, {}, 401, UNAUTHENTICATED],
      [`${API}/links/${id}`, bearer('not-a-key-of-anyone-0123'), 401, UNAUTHENTICATED],
      [`${API}/links/${id}`, bearer(KEY_B), 404, NOT_FOUND],
      [`${API}/links/999999`, bearer(KEY_A), 404, NOT_FOUND],
      [`${API}/links/1234567890123456`, bearer(KEY_A), 404, NOT_FOUND],
      [`${API}/links/${id}?fields=all`, bearer(KEY_A), 200, undefined],
      [`${API}/links/${id}/`, bearer(KEY_A), 200, undefined],
    ]
    for (const [path, headers, status, body] of cases) {
      const fast = await overHttp(port, path, headers)
      const routed = handled.length
      const slow = await framework(t, path, headers)
      expect(fast.status, path).toBe(status)
      expect(fast.body, path).toBe(slow.body)
      expect(own(fast.headers), path).toEqual(own(slow.headers))
      if (body !== undefined) expect(JSON.parse(fast.body), path).toEqual(body)
      // Over the connection, the framework answered it (the fast path never sends a 401).
      // (A 16-digit id fails the route's parameter schema, before any handler or hook.)
      if (status === 401) expect(fast.headers['www-authenticate']).toBe('Bearer')
      else expect(routed, path).toBe(path.endsWith('3456') ? 0 : 1)
      handled.length = 0
    }
    const head = await overHttp(port, `${API}/links/${id}`, bearer(KEY_A), 'HEAD')
    expect(head.status).toBe(200)
    expect(handled).toEqual([`${API}/links/${id}`])
  })
})

describe('API_RATE_LIMIT=3', () => {
  let t: TestApp
  let port: number
  let id: number
  beforeAll(async () => {
    ;({ t, port } = await listening({ API_RATE_LIMIT: '3' }))
    // Made directly: an API create would count against the limit.
    const link = await t.services.links.create(
      t.userA,
      { url: 'https://example.com/limited' },
      undefined,
      t.defaultDomainId,
    )
    id = link.id
  })
  afterAll(() => t.close())

  it('counts each show once, on the counter the framework routes use, with their headers and 429', async () => {
    const path = `${API}/links/${id}`
    const first = await overHttp(port, path, bearer(KEY_A))
    expect(first.status).toBe(200)
    expect(own(first.headers)).toEqual({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '2',
      'x-ratelimit-reset': '60',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(first.body)),
    })
    expect(handled).toEqual([])
    // A framework route counts on the same counter.
    const list = await overHttp(port, `${API}/links`, bearer(KEY_A))
    expect(list.headers['x-ratelimit-remaining']).toBe('1')
    expect(handled).toEqual([`${API}/links`])
    const third = await overHttp(port, path, bearer(KEY_A))
    expect(third.status).toBe(200)
    expect(third.headers['x-ratelimit-remaining']).toBe('0')
    const over = await overHttp(port, path, bearer(KEY_A))
    expect(over.status).toBe(429)
    expect(JSON.parse(over.body)).toEqual(TOO_MANY)
    expect(over.headers['x-ratelimit-limit']).toBe('3')
    expect(over.headers['x-ratelimit-remaining']).toBe('0')
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(59)
    expect(over.headers['retry-after']).toBe(over.headers['x-ratelimit-reset'])
    expect(over.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(handled).toEqual([`${API}/links`])
    // The framework's own 429 for the same request is the same answer.
    const slow = await framework(t, path, bearer(KEY_A))
    expect(slow.status).toBe(429)
    expect(slow.body).toBe(over.body)
  })

  it('counts a request the framework answers once, not once per path it took', async () => {
    const path = `${API}/links/${id}`
    const answers: string[] = []
    for (let i = 0; i < 3; i++) {
      const res = await overHttp(port, path, bearer(KEY_B))
      expect(res.status).toBe(404)
      answers.push(String(res.headers['x-ratelimit-remaining']))
    }
    expect(answers).toEqual(['2', '1', '0'])
    expect(handled).toEqual([path, path, path])
  })
})
