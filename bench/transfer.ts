/**
 * Export and import throughput with a large click log: builds an SQLite database with
 * TRANSFER_CLICKS click rows (default 1,000,000) over 1,000 links, with their statistics, then
 * times the built `slink` command (wall clock and peak memory from /usr/bin/time) for
 * SQLite → file, file → PostgreSQL, PostgreSQL → file, file → SQLite and a piped
 * PostgreSQL → SQLite. Run: `npm run build && node --import tsx bench/transfer.ts`, with
 * NODE_OPTIONS=--max-old-space-size=48 to check that memory does not grow with the data.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openDatabase } from '../src/db/connect.js'
import { migrate } from '../src/db/migrate.js'
import { emptyPostgres } from '../test/support/databases.js'

const CLICKS = Number(process.env.TRANSFER_CLICKS ?? 1_000_000)
const LINKS = 1000
const BIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'slink-transfer-bench-'))

async function seed(path: string): Promise<number> {
  const db = openDatabase({ kind: 'sqlite', path })
  await migrate(db)
  const h = db.sqlite!
  const t = 1_790_000_000_000
  h.transaction(() => {
    h.prepare(
      "INSERT INTO users (name, email, timezone, created_at, updated_at) VALUES ('Bench', 'bench@example.com', 'UTC', ?, ?)",
    ).run(t, t)
    h.prepare(
      "INSERT INTO domains (user_id, name, url, created_at, updated_at) VALUES (NULL, 'short.test', 'http://short.test', ?, ?)",
    ).run(t, t)
    const link = h.prepare(
      'INSERT INTO links (user_id, domain_id, alias, url, created_at, updated_at) VALUES (1, 1, ?, ?, ?, ?)',
    )
    for (let i = 1; i <= LINKS; i++) link.run(`l${i}`, `https://example.com/${i}`, t, t)
    const click = h.prepare(
      'INSERT INTO clicks (link_id, at, country, platform, browser, device, language, referrer, visitor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    const countries = ['DE', 'FR', 'US', 'JP', null]
    for (let i = 0; i < CLICKS; i++) {
      click.run(
        1 + (i % LINKS),
        t + i * 1000,
        countries[i % 5],
        'Windows',
        'Chrome',
        'desktop',
        'de',
        i % 3 ? 'news.example' : null,
        `v${(i * 7919) % 100_000}`,
      )
    }
    const stat = h.prepare(
      'INSERT INTO click_stats (link_id, dimension, day, value, clicks) VALUES (?, ?, ?, ?, ?)',
    )
    for (let link = 1; link <= LINKS; link++)
      for (let day = 1; day <= 28; day++)
        for (const dimension of ['total', 'country', 'browser', 'referrer'])
          stat.run(link, dimension, `2026-10-${String(day).padStart(2, '0')}`, '', 3)
  })()
  const rows = Number(
    h
      .prepare('SELECT (SELECT count(*) FROM clicks) + (SELECT count(*) FROM click_stats) + 1002')
      .pluck()
      .get(),
  )
  await db.close()
  return rows
}

function timed(label: string, command: string, rows: number, env: Record<string, string>): void {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M', 'sh', '-c', command], {
    // NODE_OPTIONS passes through: `--max-old-space-size=48` shows the heap stays bounded.
    env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', ...env },
    encoding: 'utf8',
  })
  const lines = result.stderr.trim().split('\n')
  const [seconds, kb] = lines.at(-1)!.split(' ').map(Number) as [number, number]
  if (result.status !== 0) throw new Error(`${label} failed: ${result.stderr}`)
  console.log(
    `${label.padEnd(34)} ${seconds.toFixed(1).padStart(6)} s  ${Math.round(rows / seconds)
      .toLocaleString('en-US')
      .padStart(9)} rows/s  peak ${Math.round(kb / 1024)} MB`,
  )
}

const source = join(dir, 'source.db')
console.log(`seeding ${CLICKS.toLocaleString('en-US')} clicks …`)
const rows = await seed(source)
const pg = await emptyPostgres()
const node = `${process.execPath} ${BIN}`
try {
  console.log(
    `${rows.toLocaleString('en-US')} rows in all; peak memory is that of the whole process`,
  )
  timed('SQLite → file', `${node} export --to ${dir}/a.jsonl`, rows, {
    DATABASE_URL: `sqlite:${source}`,
  })
  console.log(`dump: ${(statSync(`${dir}/a.jsonl`).size / 1e6).toFixed(0)} MB`)
  timed('SQLite → file.gz', `${node} export --to ${dir}/a.jsonl.gz`, rows, {
    DATABASE_URL: `sqlite:${source}`,
  })
  console.log(`gzipped dump: ${(statSync(`${dir}/a.jsonl.gz`).size / 1e6).toFixed(0)} MB`)
  timed('file → PostgreSQL', `${node} import --from ${dir}/a.jsonl`, rows, { DATABASE_URL: pg.url })
  timed('PostgreSQL → file', `${node} export --to ${dir}/b.jsonl`, rows, { DATABASE_URL: pg.url })
  timed('file → SQLite', `${node} import --from ${dir}/b.jsonl`, rows, {
    DATABASE_URL: `sqlite:${dir}/b.db`,
  })
  timed(
    'PostgreSQL | SQLite (pipe)',
    `${node} export | DATABASE_URL=sqlite:${dir}/c.db ${node} import`,
    rows,
    { DATABASE_URL: pg.url },
  )
} finally {
  await pg.drop()
  rmSync(dir, { recursive: true, force: true })
}
