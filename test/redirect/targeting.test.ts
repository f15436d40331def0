import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BROWSER_UA, eventually, startServer, type TestServer } from '../support/server.js'

let s: TestServer
let n = 0

beforeAll(async () => {
  s = await startServer({ TRUST_PROXY: 'true' })
})
afterAll(() => s.stop())

async function link(form: Record<string, string | number>) {
  const alias = `t${n++}`
  const res = await s.api('POST', '/links', {
    url: 'https://example.com/main',
    domain_id: 1,
    alias,
    ...form,
  })
  expect(res.status).toBe(201)
  return { alias, id: (res.json as { data: { id: number; last_rotation: number | null } }).data.id }
}

const where = async (alias: string, headers: Record<string, string>) =>
  (await s.send(`/${alias}`, { headers: { 'user-agent': BROWSER_UA, ...headers } })).headers
    .location

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  windows: BROWSER_UA,
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  ubuntu: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  fedora: 'Mozilla/5.0 (X11; Fedora; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  chromeos:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
}

describe('country targeting, from the first untrusted X-Forwarded-For hop', () => {
  it.each([
    ['8.8.8.8', 'https://example.com/us'],
    ['::ffff:8.8.8.8', 'https://example.com/us'],
    ['2001:4860:4860::8888', 'https://example.com/ca'],
    ['127.0.0.1', 'https://example.com/main'],
    ['not-an-address', 'https://example.com/main'],
  ])('%s → %s', async (ip, expected) => {
    const { alias } = await link({
      target_type: 1,
      'country[0][key]': 'US',
      'country[0][value]': 'https://example.com/us',
      'country[1][key]': 'CA',
      'country[1][value]': 'https://example.com/ca',
    })
    expect(await where(alias, { 'x-forwarded-for': ip })).toBe(expected)
  })
})

describe('platform targeting', () => {
  it('sends each platform to its rule, Ubuntu to the Linux rule when it has none', async () => {
    const { alias } = await link({
      target_type: 2,
      'platform[0][key]': 'iOS',
      'platform[0][value]': 'https://example.com/ios',
      'platform[1][key]': 'Android',
      'platform[1][value]': 'https://example.com/android',
      'platform[2][key]': 'Linux',
      'platform[2][value]': 'https://example.com/linux',
      'platform[3][key]': 'Chrome OS',
      'platform[3][value]': 'https://example.com/chromeos',
    })
    const got = async (ua: string) => where(alias, { 'user-agent': ua })
    expect(await got(UA.iphone)).toBe('https://example.com/ios')
    expect(await got(UA.android)).toBe('https://example.com/android')
    expect(await got(UA.ubuntu)).toBe('https://example.com/linux')
    expect(await got(UA.fedora)).toBe('https://example.com/linux')
    expect(await got(UA.chromeos)).toBe('https://example.com/chromeos')
    expect(await got(UA.windows)).toBe('https://example.com/main')
    expect(await got(UA.mac)).toBe('https://example.com/main')
  })

  it('prefers an exact Ubuntu rule over the Linux one', async () => {
    const { alias } = await link({
      target_type: 2,
      'platform[0][key]': 'Linux',
      'platform[0][value]': 'https://example.com/linux',
      'platform[1][key]': 'Ubuntu',
      'platform[1][value]': 'https://example.com/ubuntu',
    })
    expect(await where(alias, { 'user-agent': UA.ubuntu })).toBe('https://example.com/ubuntu')
  })
})

describe('language targeting', () => {
  it("follows the visitor's preference order, q-values and region subtags", async () => {
    const { alias } = await link({
      target_type: 3,
      'language[0][key]': 'de',
      'language[0][value]': 'https://example.com/de',
      'language[1][key]': 'fr',
      'language[1][value]': 'https://example.com/fr',
    })
    expect(await where(alias, { 'accept-language': 'fr-CH, de;q=0.9' })).toBe(
      'https://example.com/fr',
    )
    expect(await where(alias, { 'accept-language': 'de-DE;q=0.8, fr;q=0.9' })).toBe(
      'https://example.com/fr',
    )
    expect(await where(alias, { 'accept-language': 'en-US, de-AT;q=0.5' })).toBe(
      'https://example.com/de',
    )
    expect(await where(alias, { 'accept-language': 'en-US, es;q=0.5' })).toBe(
      'https://example.com/main',
    )
    expect(await where(alias, { 'accept-language': 'x'.repeat(5000) })).toBe(
      'https://example.com/main',
    )
  })
})

describe('rotation', () => {
  it('goes round-robin over the main URL and the rotation entries, and stores the position', async () => {
    const { alias, id } = await link({
      target_type: 4,
      'rotation[0][value]': 'https://example.com/r1',
      'rotation[1][value]': 'https://example.com/r2',
    })
    const seen = []
    for (let i = 0; i < 7; i++) seen.push(await where(alias, {}))
    expect(seen).toEqual([
      'https://example.com/main',
      'https://example.com/r1',
      'https://example.com/r2',
      'https://example.com/main',
      'https://example.com/r1',
      'https://example.com/r2',
      'https://example.com/main',
    ])
    const stored = await eventually(
      async () =>
        (await s.api('GET', `/links/${id}`)).json as {
          data: { last_rotation: number | null; clicks: number }
        },
      (r) => r.data.clicks === 7,
    )
    expect(stored.data.last_rotation).toBe(0)
  })

  it('keeps lists other than the active type stored but unused', async () => {
    const { alias } = await link({
      target_type: 0,
      'country[0][key]': 'US',
      'country[0][value]': 'https://example.com/us',
    })
    expect(await where(alias, { 'x-forwarded-for': '8.8.8.8' })).toBe('https://example.com/main')
  })
})
