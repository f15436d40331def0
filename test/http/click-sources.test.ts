/**
 * The statistics names of where visits come from and go, through the real server (its
 * click-writing thread, with GEOIP_DB naming a small city database written here), on SQLite
 * and on PostgreSQL: `utm_source`, `utm_medium`, `utm_campaign` from the short URL's query,
 * `source` (`qr=1` is a scan, and is not forwarded), `destination` (a rotation's split) and
 * `region` and `city` with their country, as JSON and CSV.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emptyPostgres } from '../support/databases.js'
import { mmdb } from '../support/mmdb.js'
import { BROWSER_UA, eventually, startServer, type TestServer } from '../support/server.js'

let s: TestServer
let dir: string
let postgres: { url: string; drop(): Promise<void> } | null = null

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slink-sources-'))
  const geoip = join(dir, 'city.mmdb')
  writeFileSync(
    geoip,
    mmdb({
      '81.2.69.0/24': {
        country: { iso_code: 'GB' },
        subdivisions: [{ names: { en: 'England' } }],
        city: { names: { en: 'London' } },
      },
      '2001:db8::/32': {
        country: { iso_code: 'DE' },
        subdivisions: [{ names: { en: 'Bavaria' } }],
        city: { names: { en: 'Munich' } },
      },
    }),
  )
  postgres = process.env.TEST_DATABASE === 'postgres' ? await emptyPostgres() : null
  s = await startServer({
    TRUST_PROXY: 'true',
    GEOIP_DB: geoip,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  })
})
afterAll(async () => {
  await s?.stop()
  await postgres?.drop()
  rmSync(dir, { recursive: true, force: true })
})

async function createLink(form: Record<string, string | number>) {
  const res = await s.api('POST', '/links', { domain_id: 1, ...form })
  expect(res.status).toBe(201)
  return (res.json as { data: { id: number; alias: string } }).data
}

async function visit(path: string, ip: string): Promise<string> {
  const res = await s.send(path, { headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': ip } })
  expect(res.status).toBe(302)
  return String(res.headers.location)
}

const stat = async (id: number, name: string) => {
  const res = await s.api('GET', `/stats/${id}?name=${name}`)
  expect(res.status).toBe(200)
  return (res.json as { data: unknown[] }).data
}

describe('where visits come from and go', () => {
  it('counts UTM values, QR scans, regions and cities; drops qr=1 from the destination', async () => {
    const link = await createLink({ url: 'https://example.com/in?x=1', alias: 'spring' })
    expect(
      await visit(
        '/spring?utm_source=news&utm_medium=email&utm_campaign=spring%202026&qr=1',
        '81.2.69.142',
      ),
    ).toBe('https://example.com/in?x=1&utm_source=news&utm_medium=email&utm_campaign=spring%202026')
    // Only qr=1 is the scan flag: anything else is forwarded, and counted as a link click.
    expect(await visit('/spring?utm_source=social&qr=2', '2001:db8::1')).toBe(
      'https://example.com/in?x=1&utm_source=social&qr=2',
    )
    expect(await visit('/spring', '10.0.0.1')).toBe('https://example.com/in?x=1')

    await eventually(
      () => stat(link.id, 'clicks'),
      (rows) => (rows as { count: number }[]).reduce((a, r) => a + r.count, 0) === 3,
      5000,
    )
    expect(await stat(link.id, 'source')).toEqual([
      { value: 'link', count: 2 },
      { value: 'qr', count: 1 },
    ])
    expect(await stat(link.id, 'utm_source')).toEqual([
      { value: null, count: 1 },
      { value: 'news', count: 1 },
      { value: 'social', count: 1 },
    ])
    expect(await stat(link.id, 'utm_medium')).toEqual([
      { value: null, count: 2 },
      { value: 'email', count: 1 },
    ])
    expect(await stat(link.id, 'utm_campaign')).toEqual([
      { value: null, count: 2 },
      { value: 'spring 2026', count: 1 },
    ])
    expect(await stat(link.id, 'destination')).toEqual([
      { value: 'https://example.com/in?x=1', count: 3 },
    ])
    expect(await stat(link.id, 'region')).toEqual([
      { value: null, count: 1, country: null },
      { value: 'Bavaria', count: 1, country: 'DE' },
      { value: 'England', count: 1, country: 'GB' },
    ])
    expect(await stat(link.id, 'city')).toEqual([
      { value: null, count: 1, country: null },
      { value: 'London', count: 1, country: 'GB' },
      { value: 'Munich', count: 1, country: 'DE' },
    ])
    expect(await stat(link.id, 'country')).toEqual([
      { value: null, count: 1 },
      { value: 'DE', count: 1 },
      { value: 'GB', count: 1 },
    ])
    const csv = await s.api('GET', `/stats/${link.id}?name=city&format=csv`)
    expect(csv.status).toBe(200)
    expect(csv.body).toBe('value,country,count\r\n,,1\r\nLondon,GB,1\r\nMunich,DE,1\r\n')
    const plain = await s.api('GET', `/stats/${link.id}?name=utm_source&format=csv`)
    expect(plain.body).toBe('value,count\r\n,1\r\nnews,1\r\nsocial,1\r\n')
  })

  it('reads a rotation’s split off `destination`', async () => {
    const link = await createLink({
      url: 'https://example.com/main',
      target_type: 4,
      'rotation[0][value]': 'https://example.com/r1',
    })
    for (let i = 0; i < 5; i++) await visit(`/${link.alias}?qr=1`, '81.2.69.1')
    const rows = await eventually(
      () => stat(link.id, 'destination'),
      (r) => (r as { count: number }[]).reduce((a, x) => a + x.count, 0) === 5,
      5000,
    )
    expect(rows).toEqual([
      { value: 'https://example.com/main', count: 3 },
      { value: 'https://example.com/r1', count: 2 },
    ])
    expect(await stat(link.id, 'source')).toEqual([{ value: 'qr', count: 5 }])
  })
})
