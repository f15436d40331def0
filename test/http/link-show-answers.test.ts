/**
 * `GET /api/v1/links/{id}` over a real connection: the exact status, headers and bytes of each
 * answer (a success, every error, the rate limit's headers and its 429), the same as the
 * framework gives in process (`inject()`), and each request counted once against the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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

async function inProcess(
  t: TestApp,
  path: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await t.app.inject({ method: 'GET', url: path, headers })
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

const JSON_TYPE = 'application/json; charset=utf-8'
/** What the server adds to every answer it sends (http/security-headers.ts), around the framework. */
const OVER_HTTP = { 'x-content-type-options': 'nosniff' }
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

  it('answers each link with its record, a JSON type and its length, and nothing else', async () => {
    for (const link of links) {
      const path = `${API}/links/${link.id}`
      const answer = await overHttp(port, path, bearer(KEY_A))
      expect(answer.status).toBe(200)
      expect(own(answer.headers)).toEqual({
        'content-type': JSON_TYPE,
        'content-length': String(Buffer.byteLength(answer.body)),
        ...OVER_HTTP,
      })
      expect(JSON.parse(answer.body)).toEqual({ data: link, status: 200 })
      const same = await inProcess(t, path, bearer(KEY_A))
      expect(answer.body).toBe(same.body)
      expect(own(answer.headers)).toEqual({ ...own(same.headers), ...OVER_HTTP })
    }
  })

  it('takes the key in any case, after a repeated header name, with spaces around it', async () => {
    const path = `${API}/links/${links[0]!.id}`
    const expected = (await inProcess(t, path, bearer(KEY_A))).body
    for (const authorization of [
      `bearer ${KEY_A}`,
      `Authorization: Bearer ${KEY_A}`,
      `BEARER   ${KEY_A}  `,
    ]) {
      const answer = await overHttp(port, path, { authorization })
      expect(answer.status, authorization).toBe(200)
      expect(answer.body, authorization).toBe(expected)
    }
  })

  it('reads an id with leading zeros as the id', async () => {
    const answer = await overHttp(port, `${API}/links/000${links[0]!.id}`, bearer(KEY_A))
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({ data: links[0], status: 200 })
  })

  it('answers every error in the contract’s shape, as in process', async () => {
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
      const answer = await overHttp(port, path, headers)
      const same = await inProcess(t, path, headers)
      expect(answer.status, path).toBe(status)
      expect(answer.body, path).toBe(same.body)
      expect(own(answer.headers), path).toEqual({ ...own(same.headers), ...OVER_HTTP })
      expect(answer.headers['content-type'], path).toBe(JSON_TYPE)
      expect(answer.headers['www-authenticate'], path).toBe(status === 401 ? 'Bearer' : undefined)
      if (body !== undefined) expect(JSON.parse(answer.body), path).toEqual(body)
    }
    const head = await overHttp(port, `${API}/links/${id}`, bearer(KEY_A), 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
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

  it('counts each show once, with the other routes, and gives the limit’s headers and 429', async () => {
    const path = `${API}/links/${id}`
    const first = await overHttp(port, path, bearer(KEY_A))
    expect(first.status).toBe(200)
    expect(own(first.headers)).toEqual({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '2',
      'x-ratelimit-reset': '60',
      'content-type': JSON_TYPE,
      'content-length': String(Buffer.byteLength(first.body)),
      ...OVER_HTTP,
    })
    // Another route counts on the same counter.
    const list = await overHttp(port, `${API}/links`, bearer(KEY_A))
    expect(list.headers['x-ratelimit-remaining']).toBe('1')
    const third = await overHttp(port, path, bearer(KEY_A))
    expect(third.status).toBe(200)
    expect(third.headers['x-ratelimit-remaining']).toBe('0')
    const over = await overHttp(port, path, bearer(KEY_A))
    expect(over.status).toBe(429)
    expect(JSON.parse(over.body)).toEqual(TOO_MANY)
    const retryAfter = Number(over.headers['retry-after'])
    expect(retryAfter).toBeGreaterThanOrEqual(59)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(own(over.headers)).toEqual({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(retryAfter),
      'retry-after': String(retryAfter),
      'content-type': JSON_TYPE,
      'content-length': String(Buffer.byteLength(over.body)),
      ...OVER_HTTP,
    })
    // In process, the same request is the same answer.
    const same = await inProcess(t, path, bearer(KEY_A))
    expect(same.status).toBe(429)
    expect(same.body).toBe(over.body)
  })

  it('counts a show of another user’s link once', async () => {
    const path = `${API}/links/${id}`
    const answers: string[] = []
    for (let i = 0; i < 3; i++) {
      const res = await overHttp(port, path, bearer(KEY_B))
      expect(res.status).toBe(404)
      expect(JSON.parse(res.body)).toEqual(NOT_FOUND)
      answers.push(String(res.headers['x-ratelimit-remaining']))
    }
    expect(answers).toEqual(['2', '1', '0'])
  })
})
