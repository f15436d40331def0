import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually, startServer, type TestServer } from '../support/server.js'

/** Distinctive request facts that must never reach the database. */
const IP = '212.58.244.22' // located in GB
const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Zq7Marker/4242'
const REFERER = 'https://ref.example.net/private-path/x?token=s3cretvalue#frag'
const LANGUAGES = 'de-CH,de;q=0.9,en;q=0.5'
const BOT_IP = '77.88.8.8'
const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) Qx9Bot'

let s: TestServer
let linkId: number

beforeAll(async () => {
  s = await startServer({ TRUST_PROXY: 'true' })
  const res = await s.api('POST', '/links', {
    url: 'https://example.com/in',
    domain_id: 1,
    alias: 'kept',
  })
  linkId = (res.json as { data: { id: number } }).data.id
  const headers = { 'user-agent': UA, 'x-forwarded-for': IP, referer: REFERER }
  for (let i = 0; i < 2; i++)
    await s.send('/kept?utm=x', { headers: { ...headers, 'accept-language': LANGUAGES } })
  await s.send('/kept', { method: 'HEAD', headers })
  await s.send('/kept', { headers: { 'user-agent': BOT_UA, 'x-forwarded-for': BOT_IP } })
})
afterAll(() => s.stop())

function read<T>(query: (db: SQLite.Database) => T): T {
  const db = new SQLite(s.dbPath, { readonly: true })
  try {
    return query(db)
  } finally {
    db.close()
  }
}

describe('what a click keeps', () => {
  it('keeps time, link, country, platform, browser, device, language, referrer host and a visitor hash', async () => {
    const rows = await eventually(
      async () => read((db) => db.prepare('SELECT * FROM clicks WHERE link_id = ?').all(linkId)),
      (r) => r.length === 2,
    )
    expect(rows).toHaveLength(2)
    for (const row of rows) {
      expect(row).toEqual({
        link_id: linkId,
        at: expect.any(Number),
        country: 'GB',
        platform: 'Windows',
        browser: 'Chrome',
        device: 'desktop',
        language: 'de',
        referrer: 'ref.example.net',
        visitor: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
        // No city database: no region or city; the query's `utm` is not a UTM parameter.
        region: null,
        city: null,
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        destination: 'https://example.com/in',
        source: 'link',
      })
    }
    expect(Math.abs((rows[0] as { at: number }).at - Date.now())).toBeLessThan(60_000)
    // The same visitor on the same day has the same hash (one unique visitor).
    expect(new Set(rows.map((r) => (r as { visitor: string }).visitor)).size).toBe(1)
  })

  it('counts neither HEAD requests nor bots', async () => {
    const clicks = read(
      (db) => db.prepare('SELECT clicks FROM links WHERE id = ?').pluck().get(linkId) as number,
    )
    expect(clicks).toBe(2)
    const total = read((db) =>
      db
        .prepare("SELECT sum(clicks) FROM click_stats WHERE link_id = ? AND dimension = 'total'")
        .pluck()
        .get(linkId),
    )
    expect(total).toBe(2)
  })

  it('stores no address, User-Agent, Accept-Language, referrer path or query anywhere', async () => {
    const secrets = [
      IP,
      BOT_IP,
      'Zq7Marker',
      'Qx9Bot',
      'Googlebot',
      'private-path',
      's3cretvalue',
      'de-CH',
      'utm=x',
    ]
    // Every value of every table …
    const found = read((db) => {
      const tables = db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
        .pluck()
        .all() as string[]
      return tables.flatMap((table) =>
        (db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]).flatMap((row) =>
          Object.values(row).flatMap((value) =>
            secrets
              .filter((secret) => String(value).includes(secret))
              .map((secret) => `${table}: ${secret}`),
          ),
        ),
      )
    })
    expect(found).toEqual([])
    // … and every byte of the database files, write-ahead log included.
    let all = ''
    for (const file of readdirSync(s.dir).filter((f) => f.startsWith('redirect.db'))) {
      const bytes = readFileSync(join(s.dir, file)).toString('latin1')
      for (const secret of secrets) expect(bytes.includes(secret), `${file}: ${secret}`).toBe(false)
      all += bytes
    }
    // The scan does see what is stored: the referrer host is there.
    expect(all).toContain('ref.example.net')
  })

  it("keeps visitor hashes only for today and yesterday, and today's salt only until tomorrow is over", () => {
    const days = read((db) =>
      db.prepare('SELECT DISTINCT day FROM click_visitors').pluck().all(),
    ) as string[]
    const today = new Date().toISOString().slice(0, 10)
    expect(
      days.every((d) => d >= new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)),
    ).toBe(true)
    expect(days).toContain(today)
    const salts = read((db) =>
      db.prepare("SELECT name FROM settings WHERE name LIKE 'visitor_salt:%'").pluck().all(),
    ) as string[]
    expect(salts.length).toBeGreaterThan(0)
    expect(salts.length).toBeLessThanOrEqual(2)
  })
})
