/**
 * Link import throughput and memory: writes a CSV of IMPORT_ROWS rows (default 1,000,000; url,
 * alias, title, created_at, clicks, with one row in a thousand invalid), then times the built
 * `slink import-links --from csv` into a fresh SQLite database (wall clock and peak memory from
 * /usr/bin/time): a dry run, the real run, and the same file again (every row a duplicate).
 * BENCH_DATABASE_URL=postgres://… (or sqlite:…) runs it on that database instead, which should
 * be empty (it is migrated, and left as the runs leave it); IMPORT_DATABASE=postgres on a fresh
 * PostgreSQL database made for the run and dropped after it (the test suite's server).
 * IMPORT_RUNS=dry,import (a comma list of dry, import, again) runs only those.
 * Run: `npm run build && node --import tsx bench/import.ts`, with
 * NODE_OPTIONS=--max-old-space-size=64 to check that memory does not grow with the file.
 */
import { spawnSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { emptyPostgres } from '../test/support/databases.js'

const ROWS = Number(process.env.IMPORT_ROWS ?? 1_000_000)
const BIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'slink-import-bench-'))

async function writeCsv(path: string): Promise<void> {
  const out = createWriteStream(path)
  const write = (text: string) =>
    out.write(text) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r()))
  await write('url,alias,title,created_at,clicks\n')
  let chunk = ''
  for (let i = 1; i <= ROWS; i++) {
    const url = i % 1000 === 0 ? 'javascript:alert(1)' : `https://example.com/page/${i}?ref=bench`
    chunk += `${url},a${i.toString(36)},"Page ${i}, imported",2024-01-01T00:00:00Z,${i % 50}\n`
    if (i % 10_000 === 0) {
      await write(chunk)
      chunk = ''
    }
  }
  await write(chunk)
  await new Promise<void>((resolve) => out.end(resolve))
}

function timed(label: string, args: string[], env: Record<string, string>): void {
  const command = ['node', BIN, ...args].map((a) => `'${a}'`).join(' ')
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M', 'sh', '-c', `${command} > /dev/null`], {
    env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', ...env },
    encoding: 'utf8',
  })
  const lines = result.stderr.trim().split('\n')
  const [seconds, kb] = lines.at(-1)!.split(' ').map(Number) as [number, number]
  if (result.status !== 0) throw new Error(`${label} failed: ${result.stderr}`)
  console.log(
    `${label.padEnd(28)} ${seconds.toFixed(1).padStart(6)} s  ${Math.round(ROWS / seconds)
      .toLocaleString('en-US')
      .padStart(9)} rows/s  peak ${Math.round(kb / 1024)} MB`,
  )
  console.log(`  ${lines.at(-2)}`)
}

async function main(): Promise<void> {
  const file = join(dir, 'links.csv')
  await writeCsv(file)
  console.log(
    `${ROWS.toLocaleString('en-US')} rows, ${(statSync(file).size / 1048576).toFixed(0)} MiB of CSV`,
  )
  const given = process.env.BENCH_DATABASE_URL
  const postgres =
    given === undefined && process.env.IMPORT_DATABASE === 'postgres' ? await emptyPostgres() : null
  const database = given ?? (postgres ? postgres.url : `sqlite:${join(dir, 'bench.db')}`)
  console.log(`on ${database.replace(/\/\/[^@/]*@/, '//')}`)
  const env = {
    DATABASE_URL: database,
    PUBLIC_URL: 'http://short.test',
    LOG_LEVEL: 'silent',
  }
  try {
    const user = spawnSync('node', [BIN, 'user', 'create', '--email', 'bench@example.com'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    })
    if (user.status !== 0) throw new Error(user.stderr)
    const base = ['import-links', '--from', 'csv', '--email', 'bench@example.com', '--file', file]
    const runs = (process.env.IMPORT_RUNS ?? 'dry,import,again').split(',')
    if (runs.includes('dry')) timed('dry run', [...base, '--dry-run'], env)
    if (runs.includes('import')) timed('import', base, env)
    if (runs.includes('again')) timed('again (all duplicates)', base, env)
  } finally {
    await postgres?.drop()
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
