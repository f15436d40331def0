/**
 * Redirect rules on the redirect: the first rule that holds wins, before the targeting list;
 * the short URL's query is merged into a rule's URL as into any destination; bots, HEAD and
 * the preview are not sent by rules; the preview lists them in words. (Storing rules is tested
 * on both engines in test/http/links-rules.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_KEY, BROWSER_UA, startServer, type TestServer } from '../support/server.js'

let s: TestServer
let n = 0
beforeAll(async () => {
  s = await startServer({ TRUST_PROXY: 'true' })
})
afterAll(() => s.stop())

/** An API call with a JSON body. */
async function api(method: string, path: string, body: unknown) {
  const reply = await s.send(`/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { ...reply, json: JSON.parse(reply.body) as { data: { id: number } } }
}

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'

async function link(body: Record<string, unknown>): Promise<string> {
  const alias = `r${n++}`
  const res = await api('POST', '/links', {
    url: 'https://example.com/main',
    domain_id: 1,
    alias,
    ...body,
  })
  expect(res.status, res.body).toBe(201)
  return alias
}

async function visit(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return s.send(path, { method, headers: { 'user-agent': BROWSER_UA, ...headers } })
}

const where = async (path: string, headers: Record<string, string> = {}) =>
  (await visit(path, headers)).headers.location

const rule = (url: string, ...conditions: Record<string, string>[]) => ({ conditions, url })

describe('rules before targeting', () => {
  it('sends the visitor by the first rule that holds, else by the targeting list', async () => {
    const alias = await link({
      target_type: 1,
      country: [{ key: 'US', value: 'https://example.com/us' }],
      rules: [
        rule(
          'https://example.com/us-iphone',
          { type: 'country', value: 'US' },
          { type: 'device', value: 'mobile' },
        ),
        rule('https://example.com/tablet', { type: 'device', value: 'tablet' }),
        rule(
          'https://example.com/firefox-de',
          { type: 'browser', value: 'Firefox' },
          { type: 'language', value: 'de' },
        ),
      ],
    })
    const us = { 'x-forwarded-for': '8.8.8.8' }
    expect(await where(`/${alias}`, { ...us, 'user-agent': IPHONE })).toBe(
      'https://example.com/us-iphone',
    )
    expect(await where(`/${alias}`, { ...us, 'user-agent': IPAD })).toBe(
      'https://example.com/tablet',
    )
    expect(await where(`/${alias}`, { ...us })).toBe('https://example.com/us')
    expect(
      await where(`/${alias}`, { 'user-agent': FIREFOX, 'accept-language': 'fr, de;q=0.5' }),
    ).toBe('https://example.com/firefox-de')
    expect(await where(`/${alias}`, { 'user-agent': FIREFOX, 'accept-language': 'fr' })).toBe(
      'https://example.com/main',
    )
  })

  it('a query rule reads the short URL’s query, which is merged into the rule’s URL', async () => {
    const alias = await link({
      rules: [
        rule('https://example.com/mail?from=rule', { type: 'query', key: 'src', value: 'mail' }),
        rule('https://example.com/any', { type: 'query', key: 'src' }),
      ],
    })
    expect(await where(`/${alias}?src=mail&x=1`)).toBe(
      'https://example.com/mail?from=rule&src=mail&x=1',
    )
    expect(await where(`/${alias}?src=web`)).toBe('https://example.com/any?src=web')
    expect(await where(`/${alias}?other=1`)).toBe('https://example.com/main?other=1')
  })

  it('before and after compare with the visit time', async () => {
    const alias = await link({
      rules: [
        rule('https://example.com/past', { type: 'before', value: '2000-01-01T00:00:00Z' }),
        rule(
          'https://example.com/now',
          { type: 'after', value: '2000-01-01T00:00:00Z' },
          { type: 'before', value: '2999-01-01T00:00:00Z' },
        ),
      ],
    })
    expect(await where(`/${alias}`)).toBe('https://example.com/now')
  })

  it('a rule that holds leaves a rotation where it was', async () => {
    const alias = await link({
      target_type: 4,
      rotation: [{ value: 'https://example.com/r1' }],
      rules: [rule('https://example.com/mobile', { type: 'device', value: 'mobile' })],
    })
    expect(await where(`/${alias}`)).toBe('https://example.com/main')
    expect(await where(`/${alias}`, { 'user-agent': IPHONE })).toBe('https://example.com/mobile')
    expect(await where(`/${alias}`)).toBe('https://example.com/r1')
  })

  it('bots and HEAD get the main URL, as with targeting', async () => {
    const alias = await link({
      rules: [rule('https://example.com/mobile', { type: 'device', value: 'desktop' })],
    })
    expect(await where(`/${alias}`)).toBe('https://example.com/mobile')
    expect(await where(`/${alias}`, { 'user-agent': 'curl/8.5.0' })).toBe(
      'https://example.com/main',
    )
    expect((await visit(`/${alias}`, {}, 'HEAD')).headers.location).toBe('https://example.com/main')
  })

  it('a changed rule list is used at once', async () => {
    const alias = await link({
      rules: [rule('https://example.com/one', { type: 'device', value: 'desktop' })],
    })
    expect(await where(`/${alias}`)).toBe('https://example.com/one')
    const listed = await s.send(`/api/v1/links?search=${alias}&search_by=alias`, {
      headers: { authorization: `Bearer ${API_KEY}` },
    })
    const id = (JSON.parse(listed.body) as { data: { id: number }[] }).data[0]!.id
    const res = await api('PATCH', `/links/${id}`, { rules: [] })
    expect(res.status).toBe(200)
    expect(await where(`/${alias}`)).toBe('https://example.com/main')
  })
})

describe('the preview', () => {
  it('lists the rules in words, in order, escaped', async () => {
    const alias = await link({
      rules: [
        rule(
          'https://example.com/fr?a=1&b=<x>',
          { type: 'country', value: 'FR' },
          { type: 'device', value: 'mobile' },
        ),
        rule('https://example.com/q', { type: 'query', key: '<b>', value: '"y"' }),
      ],
    })
    const res = await visit(`/${alias}+`)
    expect(res.status).toBe(200)
    const list = /<ol id="preview-rules">([\s\S]*?)<\/ol>/.exec(res.body)?.[1] ?? ''
    const items = [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1])
    expect(items).toEqual([
      'If country is FR and device is mobile → <a href="https://example.com/fr?a=1&amp;b=%3Cx%3E" rel="noopener noreferrer nofollow">https://example.com/fr?a=1&amp;b=%3Cx%3E</a>',
      'If query &lt;b&gt; is &quot;y&quot; → <a href="https://example.com/q" rel="noopener noreferrer nofollow">https://example.com/q</a>',
    ])
  })

  it('shows no rules section for a link without rules', async () => {
    const alias = await link({})
    const res = await visit(`/${alias}+`)
    expect(res.status).toBe(200)
    expect(res.body).toContain('https://example.com/main')
    expect(res.body).not.toContain('preview-rules')
  })
})
