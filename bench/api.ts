/**
 * The API and dashboard scenarios of `npm run bench`: a database with 1,000,000 links of one
 * user (BENCH_API_LINKS), served by `slink serve --workers 1`, against a bare node:http server
 * that answers the same status and the same JSON body (captured from slink just before) in the
 * same run. Both are loaded in alternation, round after round, by the same load generator; the
 * median of the per-round ratios is reported. Then the dashboard's links page and overview are
 * timed the way a browser sees them (one keep-alive connection, sending to last byte).
 *
 * BENCH_DATABASE=postgres runs the same scenarios on PostgreSQL (a new database on
 * TEST_POSTGRES_URL's server, dropped afterwards).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { sql, type Kysely } from 'kysely'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { openDatabase, type Db } from '../src/db/connect.js'
import { migrate } from '../src/db/migrate.js'
import { settleSearchIndex } from '../src/db/migrations/0032-search-index-level.js'
import { hashPassword, keyPrefix, sha256 } from '../src/shared/secrets.js'
import { cpuLine, figureLine, ThreadCpu, type CpuSplit, type Figure } from './cpu.js'
import { load, type LoadResult } from './load.js'
import { median, type BenchSettings } from './redirect.js'
import { running, startSlink, waitForPort, type Running } from './servers.js'
import { closeConnections, get, post, time, type Timing } from './stats-http.js'

const KEY = 'slk_benchApiKey0123456789abcdefghijklmnopqrstu'
const EMAIL = 'bench@localhost'
const PASSWORD = 'bench-password-1'

export type BenchTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string }

export interface ApiRound {
  bare: LoadResult
  slink: LoadResult
  ratio: number
}

export interface ApiReport {
  name: string
  figure?: Figure
  rounds: ApiRound[]
  medianRatio: number
  slinkP99ms: number
  /**
   * The same connections paced to half the median rate slink reached: a busy server that is not
   * saturated (the figure's p99 is this one); and the bare server at that rate, for what the
   * machine and the load generator add.
   */
  paced: { rate: number; p50ms: number; p99ms: number; errors: number; bareP99ms: number }
  errors: number
  /** For the writes: what the database holds afterwards against what slink acknowledged. */
  stored?: string
  /**
   * CPU a request over the timed rounds (bench/cpu.ts), slink's thread by thread (on PostgreSQL
   * with the database server's processes) and the bare server's.
   */
  cpu: CpuSplit | null
  bareCpu: CpuSplit | null
}

export interface PageReport {
  what: string
  timing: Timing
}

/**
 * One user with a password and an API key, the global domain `127.0.0.1`, and `count` links
 * `b0`… with titles (`Landing page 0`…), click totals spread over 0–99,999, every 50th disabled and every 40th
 * expired by date, inserted by the database itself in one statement (search index included).
 */
export async function seedApiDatabase(
  target: BenchTarget,
  count: number,
  titlePrefix = 'Landing page ',
): Promise<void> {
  const db: Db = openDatabase(target)
  try {
    await migrate(db)
    const now = Date.now()
    const hash = await hashPassword(PASSWORD)
    await sql`INSERT INTO users (name, email, timezone, created_at, updated_at, password_hash, role)
      VALUES ('Bench', ${EMAIL}, 'UTC', ${now}, ${now}, ${hash}, 'admin')`.execute(db.kysely)
    await sql`INSERT INTO api_keys (user_id, prefix, hash, created_at)
      VALUES (1, ${keyPrefix(KEY)}, ${sha256(KEY)}, ${now})`.execute(db.kysely)
    await sql`INSERT INTO domains (user_id, name, url, created_at, updated_at)
      VALUES (NULL, '127.0.0.1', 'http://127.0.0.1', ${now}, ${now})`.execute(db.kysely)
    const numbers =
      target.kind === 'postgres'
        ? sql`SELECT g AS i FROM generate_series(0, ${count - 1}) AS g`
        : sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1}) SELECT i FROM n`
    const text = target.kind === 'postgres' ? sql`::text` : sql``
    await sql`INSERT INTO links (user_id, domain_id, alias, url, title, title_locked, target_type,
        disabled, privacy, clicks, ends_at, created_at, updated_at)
      SELECT 1, 1, 'b' || i${text}, 'https://example.com/landing/' || i${text} || '?src=bench',
        ${titlePrefix} || i${text}, 1, 0,
        CASE WHEN i % 50 = 0 THEN 1 ELSE 0 END, 0, (CAST(i AS bigint) * 7919) % 100000,
        CASE WHEN i % 40 = 0 THEN CAST(${now - 86_400_000} AS bigint) ELSE NULL END,
        CAST(${now} AS bigint) - i, CAST(${now} AS bigint) - i
      FROM (${numbers}) AS numbers`.execute(db.kysely)
    // The search index as the migrations leave a database with links (0020 and 0032): one
    // segment on its level, not the many a million inserts in one statement leave.
    if (target.kind === 'sqlite') await settleSearchIndex(db.kysely as Kysely<unknown>)
    await sql`ANALYZE`.execute(db.kysely)
  } finally {
    await db.close()
  }
}

/** A new PostgreSQL database for one bench run, and its removal. */
export async function postgresTarget(): Promise<{ target: BenchTarget; drop(): Promise<void> }> {
  const admin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const name = `slink_bench_${process.pid}`
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  await client.query(`DROP DATABASE IF EXISTS ${name}`)
  await client.query(`CREATE DATABASE ${name}`)
  await client.end()
  const url = new URL(admin)
  url.pathname = `/${name}`
  return {
    target: { kind: 'postgres', url: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: admin })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}

/** A node:http server answering every request with one fixed status and JSON body. */
async function startBareJson(dir: string, status: number, body: string): Promise<Running> {
  const file = join(dir, `bare-json-${status}.cjs`)
  writeFileSync(
    file,
    "const http = require('node:http')\n" +
      `const body = Buffer.from(${JSON.stringify(body)})\n` +
      'const server = http.createServer((req, res) => {\n' +
      "  req.on('data', () => {})\n" +
      "  req.on('end', () => {\n" +
      `    res.writeHead(${status}, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length })\n` +
      '    res.end(body)\n' +
      '  })\n' +
      '})\n' +
      "server.listen(0, '127.0.0.1', () => console.log(`bare listening on ${server.address().port}`))\n" +
      "process.on('SIGTERM', () => server.close(() => process.exit(0)))\n",
  )
  const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] })
  return running(child, await waitForPort(child, /bare listening on (\d+)/))
}

export interface ApiScenario {
  name: string
  /** The figure it must hold; none for a scenario measured beside them. */
  figure?: Figure
  method: 'GET' | 'POST' | 'PUT'
  paths: string[]
  body?: string
  status: number
  /** A count in the database that every acknowledged write of the scenario adds to. */
  stored?: string
}

/** One number from the bench's database (read while slink serves it). */
async function countIn(target: BenchTarget, query: string): Promise<number> {
  if (target.kind === 'sqlite') {
    const raw = new SQLite(target.path, { readonly: true })
    try {
      return Number(raw.prepare(query).pluck().get())
    } finally {
      raw.close()
    }
  }
  const client = new pg.Client({ connectionString: target.url })
  await client.connect()
  try {
    return Number((await client.query<{ n: string }>(query)).rows[0]?.n)
  } finally {
    await client.end()
  }
}

const FORM = 'application/x-www-form-urlencoded'

export function apiScenarios(count: number): ApiScenario[] {
  // 1,000 links spread over the stored ones.
  const ids = Array.from({ length: 1000 }, (_, i) => 1 + Math.floor((i * count) / 1000))
  // Searches an owner would type: the first digits of an alias (about 111 links match each).
  const terms = Array.from({ length: 200 }, (_, i) => `b${1000 + ((i * 37) % 9000)}`)
  return [
    {
      name: 'show a link: GET /api/v1/links/{id}',
      figure: { cpuUs: 150, p99ms: 50 },
      method: 'GET',
      paths: ids.map((id) => `/api/v1/links/${id}`),
      status: 200,
    },
    {
      name: 'list 25 links: GET /api/v1/links?search=…&search_by=alias&status=1&sort_by=clicks&per_page=25',
      figure: { cpuUs: 1500, p99ms: 50 },
      method: 'GET',
      paths: terms.map(
        (term) =>
          `/api/v1/links?search=${term}&search_by=alias&status=1&sort_by=clicks&sort=desc&per_page=25`,
      ),
      status: 200,
    },
    {
      // The call a client pages through its links with: the total is the user's whole count.
      name: 'list 25 links, no filter: GET /api/v1/links?per_page=25&page=…',
      method: 'GET',
      paths: Array.from({ length: 40 }, (_, i) => `/api/v1/links?per_page=25&page=${i + 1}`),
      status: 200,
    },
    {
      name: 'create a link: POST /api/v1/links (url, form-encoded)',
      figure: { cpuUs: 800, p99ms: 50 },
      method: 'POST',
      paths: ['/api/v1/links'],
      body: 'url=https%3A%2F%2Fexample.com%2Fnew%3Fsrc%3Dbench',
      status: 201,
      stored: "SELECT count(*) AS n FROM links WHERE url = 'https://example.com/new?src=bench'",
    },
    {
      name: 'update a link: PUT /api/v1/links/{id} (title, form-encoded)',
      figure: { cpuUs: 800, p99ms: 50 },
      method: 'PUT',
      paths: ids.map((id) => `/api/v1/links/${id}`),
      body: 'title=Renamed+by+the+bench',
      status: 200,
      stored: "SELECT count(*) AS n FROM links WHERE title = 'Renamed by the bench'",
    },
  ]
}

/**
 * The search people type, a common word: 10,000 links titled `Seed link 0` … `Seed link 9999`,
 * of which `seed link 1` matches 1,111; and creates on a database of that size.
 */
export function seedSearchScenarios(): ApiScenario[] {
  const list = apiScenarios(10_000)
  return [
    {
      name: 'search a common word: GET /api/v1/links?search=seed link 1&search_by=title&status=1&sort_by=clicks&per_page=25',
      figure: { cpuUs: 3000, p99ms: 50 },
      method: 'GET',
      paths: [
        '/api/v1/links?search=seed%20link%201&search_by=title&status=1&sort_by=clicks&per_page=25',
      ],
      status: 200,
    },
    list.find((s) => s.method === 'POST')!,
  ]
}

/**
 * One create and one update before the first scenario: the reads are measured on a server in
 * the state of one in use, which has run transactions (a process's first transaction once cost
 * every later show a fifth of its pace, and a bench of reads on a fresh server did not see it).
 */
async function primeWithWrites(port: number): Promise<void> {
  const headers = { authorization: `Bearer ${KEY}` }
  const created = await post(port, '/api/v1/links', headers, { url: 'https://example.com/primed' })
  const updated = await post(port, '/api/v1/links/1', headers, { title: 'Primed' }, 'PUT')
  if (created.status !== 201 || updated.status !== 200) {
    throw new Error(`priming writes: got ${created.status} and ${updated.status}`)
  }
}

async function capture(port: number, scenario: ApiScenario): Promise<string> {
  const headers = { authorization: `Bearer ${KEY}` }
  const path = scenario.paths[0]!
  const answer =
    scenario.method === 'GET'
      ? await get(port, path, headers)
      : await post(
          port,
          path,
          headers,
          Object.fromEntries(new URLSearchParams(scenario.body ?? '')),
          scenario.method,
        )
  if (answer.status !== scenario.status) {
    throw new Error(
      `${scenario.name}: expected ${scenario.status}, got ${answer.status} ${answer.body}`,
    )
  }
  return answer.body
}

/**
 * Runs the scenarios (the five of `apiScenarios` unless given) against `slink serve` (with
 * `--workers 1` unless `serveArgs` says otherwise), then times the dashboard's pages when asked.
 */
export async function apiBench(
  target: BenchTarget,
  count: number,
  settings: BenchSettings,
  options: { scenarios?: ApiScenario[]; serveArgs?: string[]; pages?: boolean } = {},
): Promise<{ api: ApiReport[]; pages: PageReport[] }> {
  // The figures are set for SQLite served the default way; any other run is measured beside them.
  const judged = target.kind === 'sqlite' && options.serveArgs === undefined
  const env: Record<string, string> = target.kind === 'postgres' ? { DATABASE_URL: target.url } : {}
  const slink = await startSlink(
    target.kind === 'sqlite' ? target.path : '',
    options.serveArgs ?? [],
    env,
  )
  const reports: ApiReport[] = []
  try {
    await primeWithWrites(slink.port)
    for (const scenario of options.scenarios ?? apiScenarios(count)) {
      const body = await capture(slink.port, scenario)
      const bare = await startBareJson(settings.dir, scenario.status, body)
      const common = {
        paths: scenario.paths,
        connections: settings.connections,
        headers: {
          Authorization: `Bearer ${KEY}`,
          ...(scenario.body === undefined ? {} : { 'Content-Type': FORM }),
        },
        dir: settings.dir,
        method: scenario.method,
        ...(scenario.body === undefined ? {} : { body: scenario.body }),
      }
      try {
        await load({ ...common, port: bare.port, seconds: 2 })
        const before = scenario.stored ? await countIn(target, scenario.stored) : 0
        const warm = await load({ ...common, port: slink.port, seconds: 2 })
        const rounds: ApiRound[] = []
        // On PostgreSQL, the database server's processes count too: they are what moving to
        // it costs the machine besides slink's own threads.
        const slinkCpu = new ThreadCpu(
          slink.child.pid ?? null,
          target.kind === 'postgres' ? 'postgres' : null,
        )
        const bareCpu = new ThreadCpu(bare.child.pid ?? null)
        for (let i = 0; i < settings.rounds; i++) {
          const b = await bareCpu.during(() =>
            load({ ...common, port: bare.port, seconds: settings.seconds }),
          )
          const s = await slinkCpu.during(() =>
            load({ ...common, port: slink.port, seconds: settings.seconds }),
          )
          rounds.push({ bare: b, slink: s, ratio: s.rps / b.rps })
        }
        const rate = Math.max(1, Math.round(median(rounds.map((r) => r.slink.rps)) / 2))
        const pacedBare = await load({
          ...common,
          port: bare.port,
          seconds: settings.seconds,
          rate,
        })
        const paced = await load({ ...common, port: slink.port, seconds: settings.seconds, rate })
        const acknowledged = rounds.reduce(
          (n, r) => n + r.slink.requests - r.slink.errors,
          warm.requests - warm.errors + paced.requests - paced.errors,
        )
        reports.push({
          name: scenario.name,
          ...(scenario.figure === undefined || !judged ? {} : { figure: scenario.figure }),
          rounds,
          medianRatio: median(rounds.map((r) => r.ratio)),
          slinkP99ms: median(rounds.map((r) => r.slink.p99ms)),
          paced: {
            rate,
            p50ms: paced.p50ms,
            p99ms: paced.p99ms,
            errors: paced.errors,
            bareP99ms: pacedBare.p99ms,
          },
          errors: rounds.reduce((n, r) => n + r.slink.errors, paced.errors),
          cpu: slinkCpu.split(),
          bareCpu: bareCpu.split(),
          ...(scenario.stored
            ? {
                stored:
                  scenario.method === 'POST'
                    ? createdLine((await countIn(target, scenario.stored)) - before, acknowledged)
                    : await updatedLine(target, scenario),
              }
            : {}),
        })
      } finally {
        await bare.stop()
      }
    }
    const pages = options.pages === false ? [] : await dashboardTimings(slink.port)
    return { api: reports, pages }
  } finally {
    closeConnections()
    const code = await slink.stop()
    if (code !== 0) console.error(`slink exited with ${code}`)
  }
}

/**
 * The new rows against the 201s the load generator counted (a few more rows than answers are
 * requests it had sent when a timed run ended and no longer waited for).
 */
function createdLine(stored: number, acknowledged: number): string {
  return `${stored} links stored for ${acknowledged} creates answered 201 (${stored >= acknowledged ? 'none lost' : `${acknowledged - stored} LOST`})`
}

/**
 * The links renamed, against the links the load generator sent an update to. Each connection
 * walks the path list from its start on every run, so the links sent are the list's first ones,
 * up to the last one renamed: any of those not renamed is a lost write.
 */
async function updatedLine(target: BenchTarget, scenario: ApiScenario): Promise<string> {
  const renamed = await countIn(target, scenario.stored!)
  const last = await countIn(target, scenario.stored!.replace('count(*)', 'coalesce(max(id), 0)'))
  const ids = scenario.paths.map((path) => Number(path.slice(path.lastIndexOf('/') + 1)))
  const sent = ids.filter((id) => id <= last).length
  return `${renamed} links renamed of the ${sent} the load reached (${renamed === sent ? 'none lost' : `${sent - renamed} LOST`})`
}

/** Signs in through the real form and times the links page and the overview. */
async function dashboardTimings(port: number): Promise<PageReport[]> {
  const form = await get(port, '/login', {})
  const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1]
  const csrfCookie = String(form.headers['set-cookie'] ?? '').split(';')[0]!
  if (!csrf) throw new Error('no CSRF token on the sign-in form')
  const signedIn = await post(
    port,
    '/login',
    { cookie: csrfCookie },
    { _csrf: csrf, email: EMAIL, password: PASSWORD },
  )
  const session = String(signedIn.headers['set-cookie'] ?? '').split(';')[0]!
  if (signedIn.status !== 303 || !session.startsWith('slink_session=')) {
    throw new Error(`sign-in failed: ${signedIn.status} ${signedIn.body}`)
  }
  const cookie = { cookie: session }
  const pages: [string, string][] = [
    [
      'links page: 100 rows, status=1, sort_by=clicks',
      '/dashboard/links?status=1&sort_by=clicks&sort=desc&per_page=100',
    ],
    [
      'links page: 100 rows, search_by=title "page 12", sort_by=alias',
      '/dashboard/links?search=page+12&search_by=title&sort_by=alias&sort=asc&per_page=100',
    ],
    ['links page: 100 rows, newest first (no filter)', '/dashboard/links?per_page=100'],
    ['overview', '/dashboard'],
  ]
  const out: PageReport[] = []
  for (const [what, path] of pages) out.push({ what, timing: await time(port, path, cookie) })
  return out
}

export function printApi(
  engine: string,
  count: number,
  result: { api: ApiReport[]; pages: PageReport[] },
): void {
  console.log(`\nAPI on ${engine}, ${count.toLocaleString('en')} links stored (one user)`)
  for (const report of result.api) {
    console.log(`\n${report.name}`)
    console.log('  round   bare req/s   p50     p99   |  slink req/s   p50     p99   | ratio')
    report.rounds.forEach((r, i) => {
      const cell = (l: LoadResult) =>
        `${l.rps.toFixed(0).padStart(10)} ${l.p50ms.toFixed(2).padStart(6)} ${l.p99ms.toFixed(2).padStart(7)}`
      console.log(
        `  ${String(i + 1).padStart(5)} ${cell(r.bare)}   | ${cell(r.slink)}   | ${r.ratio.toFixed(3)}`,
      )
    })
    console.log(
      `  median ratio ${report.medianRatio.toFixed(3)}; slink median p99 ${report.slinkP99ms.toFixed(2)} ms; errors ${report.errors}`,
    )
    const { paced } = report
    console.log(
      `  paced to ${paced.rate} req/s (half of slink's median): p50 ${paced.p50ms.toFixed(2)} ms, p99 ${paced.p99ms.toFixed(2)} ms; bare server p99 ${paced.bareP99ms.toFixed(2)} ms`,
    )
    const verdict = figureLine(report.cpu, paced.p99ms, report.figure, 'p99 paced to half')
    if (verdict !== null) console.log(verdict)
    const cpu = cpuLine(report.cpu, report.bareCpu, 'click-writing thread')
    if (cpu !== null) console.log(cpu)
    if (report.stored) console.log(`  ${report.stored}`)
  }
  if (result.pages.length === 0) return
  console.log(`\ndashboard on ${engine} (one keep-alive connection, 5 warm-up + 31 timed requests)`)
  console.log(
    '  page                                                        median     p90      max',
  )
  for (const page of result.pages) {
    const t = page.timing
    console.log(
      `  ${page.what.padEnd(58)} ${t.medianMs.toFixed(2).padStart(7)} ${t.p90Ms.toFixed(2).padStart(7)} ${t.maxMs.toFixed(2).padStart(8)} ms`,
    )
  }
}
