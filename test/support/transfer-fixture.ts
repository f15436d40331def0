/**
 * The source database of the transfer tests, filled through the API, the real click writer and
 * a few direct writes so that every table holds rows, with awkward values, and exported once;
 * plus helpers to compare databases row for row and to re-sign an edited dump.
 */
import { readCsv } from '../../src/imports/sources/csv.js'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { expect } from 'vitest'
import { ClickDescriber } from '../../src/clicks/describe.js'
import { clickStoreFor } from '../../src/clicks/store.js'
import { VisitorHasher } from '../../src/clicks/visitor-hash.js'
import { planStreamEvents } from '../../src/clicks/stream-events.js'
import { ClickWriter } from '../../src/clicks/writer.js'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { sharedSecret } from '../../src/db/settings.js'
import { liveTables } from '../../src/transfer/catalog.js'
import { createTestApp, KEY_A, KEY_B, type TestApp } from './app.js'
import { slink } from './cli.js'

export const EXPORTED = /^exported \d+ rows of \d+ tables in \d+\.\d s\n$/
export const IMPORTED = /^imported \d+ rows into \d+ tables in \d+\.\d s\n$/
const TITLE = 'Frühling — 春 🌸 "quoted" \\ back\nslash\ttab \u2028 \u0001 עברית'

export interface TransferSource {
  dir: string
  app: TestApp
  /** DATABASE_URL of the source. */
  url: string
  /** The source's dump, and its lines. */
  dump: string
  lines(): string[]
  /** The key of a user whose only key is revoked. */
  carolKey: string
  /** The highest link id ever handed out, whose link is deleted. */
  deletedLinkId: number
  /** DATABASE_URL of a new SQLite file in the test's folder. */
  target(name: string): string
  close(): Promise<void>
}

export async function transferSource(): Promise<TransferSource> {
  const dir = mkdtempSync(join(tmpdir(), 'slink-transfer-'))
  const url = `sqlite:${join(dir, 'source.db')}`
  const app = await createTestApp({ DATABASE_URL: url })
  const ids = await populate(app)
  const exported = await slink(['export'], { DATABASE_URL: url })
  expect(exported.stderr).toMatch(EXPORTED)
  expect(exported.status).toBe(0)
  const dump = exported.stdout
  return {
    dir,
    app,
    url,
    dump,
    lines: () => dump.trimEnd().split('\n'),
    ...ids,
    target: (name) => `sqlite:${join(dir, name)}`,
    close: async () => {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function populate(app: TestApp): Promise<{ carolKey: string; deletedLinkId: number }> {
  const api = async (path: string, json: unknown, key = KEY_A): Promise<{ id: number }> => {
    const res = await app.call('POST', `/api/v1/${path}`, { json, key })
    expect(res.statusCode, res.body).toBe(201)
    return (res.json() as { data: { id: number } }).data
  }
  const db = app.services.db
  const space = await api('spaces', { name: 'Kampagnen 🎯', color: 3 })
  const shop = await api('pixels', { name: 'Shop', type: 'facebook', value: '1234567890' })
  const ga = await api('pixels', { name: 'GA ünï', type: 'google-analytics', value: 'G-ABC123' })
  await api('utm-templates', {
    name: 'Frühling 🌷',
    utm_source: 'news letter',
    utm_medium: 'email',
  })
  const own = await api('domains', {
    name: 'go.example.com',
    not_found_page: 'https://example.com/missing',
  })
  // An import: its record, each row's result, and the key of the link it made.
  const run = await app.services.imports.begin(app.userA, {
    source: 'csv',
    origin: 'ünï.csv',
    scope: 'csv',
    dryRun: false,
    onConflict: 'rename',
  })
  const csv = 'url,alias,clicks\nhttps://import.example/ü,imported-1,7\njavascript:x,bad,\n'
  await app.services.imports.run(
    run,
    'csv',
    readCsv(
      (async function* () {
        yield Buffer.from(csv)
      })(),
    ),
    app.defaultDomainId,
  )
  const spring = await api('links', {
    url: 'https://example.com/spring-sale?utm_source=ü',
    domain_id: app.defaultDomainId,
    alias: 'spring',
    title: TITLE,
    target_type: 1,
    country: [
      { key: 'DE', value: 'https://example.de/fruehling' },
      { key: 'JP', value: 'https://example.jp/haru' },
    ],
    platform: [{ key: 'iOS', value: 'https://apps.example/ios' }],
    language: [{ key: 'fr', value: 'https://example.fr/printemps' }],
    rotation: [{ value: 'https://a.example/' }, { value: 'https://b.example/' }],
    pixel_ids: [shop.id, ga.id],
    space_id: space.id,
    tags: ['Frühling', 'Sale'],
    rules: [
      {
        conditions: [
          { type: 'country', value: 'AT' },
          { type: 'query', key: 'ref', value: 'ü' },
        ],
        url: 'https://example.at/fruehling',
      },
    ],
    og_title: 'Spring <sale> ü',
    og_image: 'https://img.example/spring.png',
    expiration_date: '2099-12-31',
    expiration_time: '23:59',
    expiration_clicks: 1000,
    expiration_url: 'https://example.com/over',
  })
  await api('links', {
    url: 'https://example.com/secret',
    domain_id: own.id,
    alias: 'secret',
    password: 'opensesame',
    privacy: 2,
    privacy_password: 'stats-only',
  })
  const bobs = await api(
    'links',
    { url: 'https://bob.example/', domain_id: app.defaultDomainId },
    KEY_B,
  )
  const doomed = await api('links', {
    url: 'https://example.com/doomed',
    domain_id: app.defaultDomainId,
  })
  const carol = await app.services.users.createUser({
    email: 'carol@example.com',
    name: 'Carol 👩‍💻',
    timezone: 'Asia/Tokyo',
  })
  await app.services.users.revokeKey(carol.apiKey)
  // A dashboard password, a session and a one-time password link.
  await app.services.accounts.setPassword(carol.user.id, 'carol password')
  await app.services.sessions.start(carol.user.id)
  await app.services.accounts.issueToken(app.userB)

  // Clicks through the real writer, over two days, then the last link deleted: its click-log
  // rows stay (the log has no foreign key), and its id must never be handed out again.
  const hasher = new VisitorHasher(db)
  // Their click-stream events wait in the outbox as they would with CLICK_STREAM_URL set.
  const writer = new ClickWriter(
    clickStoreFor(db),
    hasher,
    new ClickDescriber(hasher),
    undefined,
    (rows) => planStreamEvents(db, rows),
  )
  const now = Date.now()
  const agents = [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  ]
  const events = [spring.id, spring.id, spring.id, bobs.id, doomed.id].flatMap((linkId, i) =>
    [now - 86_400_000, now].map((at, day) => ({
      linkId,
      counted: false,
      at: at + i,
      ip: `81.2.69.${140 + i + day}`,
      userAgent: agents[i % 2]!,
      acceptLanguage: i % 2 ? 'de-DE,de;q=0.9' : undefined,
      referer: i % 3 ? `https://news.example/${i}` : undefined,
      query: i % 2 ? 'utm_source=news&qr=1' : '',
      destination: 'https://example.com/spring',
    })),
  )
  await writer.write({ events, rotations: [[spring.id, 1]] })

  const deleted = await app.call('DELETE', `/api/v1/links/${doomed.id}`)
  expect(deleted.statusCode).toBe(200)
  await sharedSecret(db, 'cookie_secret')
  const hook = await db.kysely
    .insertInto('webhooks')
    .values({
      user_id: app.userA,
      url: 'https://hooks.example/ünï',
      events: '["link.created","click.recorded"]',
      active: 0,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      failing_since: now - 1,
      disabled_reason: 'Every attempt failed for 5 days.',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const delivery = await db.kysely
    .insertInto('webhook_outbox')
    .values({
      webhook_id: hook.id,
      message_id: 'msg_0123456789abcdef',
      type: 'link.created',
      payload: `{"type":"link.created","data":{"title":${JSON.stringify(TITLE)}}}`,
      status: 'failed',
      attempts: 8,
      next_attempt_at: now,
      lease_until: null,
      last_attempt_at: now,
      last_status_code: 500,
      last_duration_ms: 12,
      last_error: 'HTTP 500',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.kysely
    .insertInto('webhook_attempts')
    .values([
      {
        webhook_id: hook.id,
        delivery_id: delivery.id,
        attempted_at: now - 1,
        status_code: null,
        duration_ms: 10_000,
        error: 'timed out',
      },
      {
        webhook_id: hook.id,
        delivery_id: delivery.id,
        attempted_at: now,
        status_code: 500,
        duration_ms: 12,
        error: 'HTTP 500',
      },
    ])
    .execute()

  await db.kysely
    .insertInto('click_stream_lease')
    .values({ name: 'publisher', holder: 'a-stopped-process', until: now })
    .execute()

  // Values the API never makes, at the edges of what the columns hold.
  const handle = db.sqlite!
  handle.prepare('UPDATE links SET clicks = ? WHERE id = ?').run(Number.MAX_SAFE_INTEGER, bobs.id)
  handle
    .prepare(
      'INSERT INTO clicks (link_id, at, country, platform, browser, device, language, referrer, visitor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(spring.id, 8_640_000_000_000_000, '', null, 'Ünïcødé 🚀', null, null, TITLE, '-')
  handle.prepare('UPDATE users SET created_at = ? WHERE id = ?').run(-1, app.userB)
  return { carolKey: carol.apiKey, deletedLinkId: doomed.id }
}

/** Every row of every table, as sorted JSON, for comparing two databases. */
export async function contents(db: Db): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {}
  for (const table of await liveTables(db)) {
    const { rows } = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table.name)}`.execute(db.kysely)
    const names = table.columns.map((c) => c.name).sort()
    out[table.name] = rows.map((row) => JSON.stringify(names.map((n) => [n, row[n]]))).sort()
  }
  return out
}

export async function withDatabase<T>(url: string, read: (db: Db) => Promise<T>): Promise<T> {
  const db = openDatabase(
    url.startsWith('sqlite:') ? { kind: 'sqlite', path: url.slice(7) } : { kind: 'postgres', url },
  )
  try {
    return await read(db)
  } finally {
    await db.close()
  }
}

export const rowCount = (url: string) =>
  withDatabase(url, async (db) => {
    let n = 0
    for (const lines of Object.values(await contents(db))) n += lines.length
    return n
  })

/** A dump with its end line recomputed, as if it had been written so. */
export function signed(lines: string[]): string {
  const body = lines
    .slice(0, -1)
    .map((l) => `${l}\n`)
    .join('')
  const trailer = JSON.parse(lines[lines.length - 1]!) as { rows: number }
  const sha256 = createHash('sha256').update(body).digest('hex')
  return `${body}${JSON.stringify({ end: true, rows: trailer.rows, sha256 })}\n`
}
