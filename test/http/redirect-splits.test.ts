/**
 * Redirects of weighted rotations and app links, through a real server (`slink serve`) on the
 * engine of the project (SQLite, or PostgreSQL under TEST_DATABASE=postgres).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emptyPostgres } from '../support/databases.js'
import { BROWSER_UA, startServer, type TestServer } from '../support/server.js'

const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const MAIN = 'https://example.com/main'
const INTENT = 'intent://scan/#Intent;scheme=zxing;package=com.google.zxing.client.android;end'
const INTENT_FALLBACK =
  'intent://scan/#Intent;scheme=zxing;S.browser_fallback_url=https%3A%2F%2Fexample.com%2Ffallback;end'

let s: TestServer
let pg: Awaited<ReturnType<typeof emptyPostgres>> | null = null
let n = 0

beforeAll(async () => {
  pg = process.env.TEST_DATABASE === 'postgres' ? await emptyPostgres('splits') : null
  s = await startServer(pg ? { DATABASE_URL: pg.url } : {})
}, 30_000)
afterAll(async () => {
  await s.stop()
  await pg?.drop()
})

async function link(form: Record<string, string | number>) {
  const alias = `s${n++}`
  const res = await s.api('POST', '/links', { url: MAIN, domain_id: 1, alias, ...form })
  expect(res.status, res.body).toBe(201)
  return alias
}

const visit = (alias: string, ua = BROWSER_UA, query = '') =>
  s.send(`/${alias}${query}`, { headers: { 'user-agent': ua } })

describe('a weighted rotation', () => {
  it('sends exactly the weights in every 100 counted visits, spread out', async () => {
    const alias = await link({
      target_type: 4,
      'rotation[0][value]': 'https://example.com/a',
      'rotation[0][weight]': 50,
      'rotation[1][value]': 'https://example.com/b',
      'rotation[1][weight]': 25,
    })
    const seen: string[] = []
    for (let i = 0; i < 200; i++) {
      const reply = await visit(alias)
      expect(reply.status).toBe(302)
      seen.push(String(reply.headers.location))
    }
    expect(seen.slice(0, 4)).toEqual([
      'https://example.com/a',
      MAIN,
      'https://example.com/b',
      'https://example.com/a',
    ])
    for (const from of [0, 37, 100]) {
      const window = seen.slice(from, from + 100)
      expect(window.filter((l) => l === 'https://example.com/a')).toHaveLength(50)
      expect(window.filter((l) => l === MAIN)).toHaveLength(25)
      expect(window.filter((l) => l === 'https://example.com/b')).toHaveLength(25)
    }
  })

  it('shows the weights on the preview page', async () => {
    const alias = await link({
      target_type: 4,
      'rotation[0][value]': 'https://example.com/a',
      'rotation[0][weight]': 30,
    })
    const preview = await visit(`${alias}+`)
    expect(preview.status).toBe(200)
    expect(preview.body).toContain(
      '<li><a href="https://example.com/a" rel="noopener noreferrer nofollow">https://example.com/a</a> (30 in 100 visits)</li>',
    )
  })
})

describe('app links', () => {
  it.each([
    'mailto:team@example.com?subject=Hello',
    'tel:+15551234567',
    'spotify:track:4uLU6hMCjMI75M1A2tKUQC',
    'whatsapp://send?text=hi',
  ])('redirects to %s with a 302 like any other destination', async (url) => {
    const alias = await link({ url })
    const reply = await visit(alias)
    expect(reply.status).toBe(302)
    expect(reply.headers.location).toBe(url)
    expect(reply.headers['cache-control']).toBe('no-store')
  })

  it('merges the short URL query into an app link', async () => {
    const alias = await link({ url: 'mailto:team@example.com?subject=Hello' })
    expect((await visit(alias, BROWSER_UA, '?body=x')).headers.location).toBe(
      'mailto:team@example.com?subject=Hello&body=x',
    )
  })

  it('offers an intent in a rotation to Android only', async () => {
    const alias = await link({
      target_type: 4,
      'rotation[0][value]': INTENT,
      'rotation[0][weight]': 100,
    })
    expect((await visit(alias, ANDROID_UA)).headers.location).toBe(INTENT)
    expect((await visit(alias, IPHONE_UA)).headers.location).toBe(MAIN)
    expect((await visit(alias, BROWSER_UA)).headers.location).toBe(MAIN)
    expect((await visit(alias, ANDROID_UA)).headers.location).toBe(INTENT)
  })

  it('sends others to the browser fallback of a main URL that is an intent', async () => {
    const alias = await link({ url: INTENT_FALLBACK })
    expect((await visit(alias, ANDROID_UA)).headers.location).toBe(INTENT_FALLBACK)
    expect((await visit(alias, IPHONE_UA)).headers.location).toBe('https://example.com/fallback')
  })

  it('sends an expired link to an intent expiry URL on Android, elsewhere to its fallback', async () => {
    const alias = await link({
      url: 'https://example.com/live',
      expiration_url: INTENT_FALLBACK,
      expiration_date: '2020-01-01',
      expiration_time: '00:00',
    })
    const android = await visit(alias, ANDROID_UA)
    expect(android.status).toBe(302)
    expect(android.headers.location).toBe(INTENT_FALLBACK)
    const iphone = await visit(alias, IPHONE_UA)
    expect(iphone.status).toBe(302)
    expect(iphone.headers.location).toBe('https://example.com/fallback')
  })

  it('links an app link on the preview page', async () => {
    const alias = await link({ url: 'tel:+15551234567' })
    const preview = await visit(`${alias}+`)
    expect(preview.body).toContain(
      '<p><a href="tel:+15551234567" rel="noopener noreferrer nofollow">tel:+15551234567</a></p>',
    )
  })
})
