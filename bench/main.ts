/**
 * `npm run bench`: measures, prints and explains. Scenarios run one after another on this
 * machine; every figure comes from this run. Settings: BENCH_ROUNDS (3), BENCH_SECONDS (5),
 * BENCH_CONNECTIONS (50), BENCH_ONLY (comma list of scenario names: redirect-1k, redirect-1m,
 * redirect-2w, redirect-bots, api, seed, create-modes, text, overload, shutdown, stats),
 * BENCH_STATS_CLICKS (1,000,000), BENCH_API_LINKS (1,000,000), BENCH_DATABASE (sqlite;
 * `postgres` runs the api and seed scenarios on PostgreSQL).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  apiBench,
  apiScenarios,
  postgresTarget,
  printApi,
  seedApiDatabase,
  seedSearchScenarios,
  type BenchTarget,
} from './api.js'
import { hasWrk } from './load.js'
import { cpuLine, figureLine, type Figure } from './cpu.js'
import { redirectBench, type BenchSettings, type RedirectReport } from './redirect.js'
import { seedDatabase } from './seed.js'
import { overloadBench, printOverload } from './overload.js'
import { printShutdown, shutdownBench } from './shutdown.js'
import { printStats, statsBench } from './stats.js'
import { printText, textBench } from './text.js'

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

const settings: BenchSettings = {
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  dir: mkdtempSync(join(tmpdir(), 'slink-bench-')),
}
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim())
const wanted = (name: string) => !only || only.includes(name)

/** 1,000 hot aliases spread evenly over the stored links. */
const hotPaths = (stored: number) =>
  Array.from({ length: 1000 }, (_, i) => `/b${Math.floor((i * stored) / 1000)}`)

function printRedirect(report: RedirectReport, figure?: Figure): void {
  console.log(`\n${report.name}`)
  console.log('  round   bare req/s   p50     p99   |  slink req/s   p50     p99   | ratio')
  report.rounds.forEach((r, i) => {
    const cell = (l: { rps: number; p50ms: number; p99ms: number }) =>
      `${l.rps.toFixed(0).padStart(10)} ${l.p50ms.toFixed(2).padStart(6)} ${l.p99ms.toFixed(2).padStart(7)}`
    console.log(
      `  ${String(i + 1).padStart(5)} ${cell(r.bare)}   | ${cell(r.slink)}   | ${r.ratio.toFixed(3)}`,
    )
  })
  console.log(
    `  median ratio ${report.medianRatio.toFixed(3)}; slink median p99 ${report.slinkP99ms.toFixed(2)} ms`,
  )
  const cpu = cpuLine(report.cpu, report.bareCpu, 'click writer')
  if (cpu !== null) console.log(cpu)
  const verdict = figureLine(report.cpu, report.slinkP99ms, figure)
  if (verdict !== null) console.log(verdict)
  const c = report.counted
  console.log(
    `  answered by slink: ${c.requests} requests (wrk's count); stored: ${c.clicks} clicks, ${c.rows} click rows`,
  )
}

async function main(): Promise<void> {
  console.log(
    `slink benchmark: ${cpus().length} cores, Node ${process.version}, load by ${hasWrk() ? 'wrk' : 'autocannon'}, ` +
      `${settings.connections} connections, ${settings.rounds} rounds of ${settings.seconds} s per server`,
  )
  const reports: RedirectReport[] = []
  for (const stored of [1_000, 1_000_000]) {
    const name = `redirect-${stored === 1000 ? '1k' : '1m'}`
    if (!wanted(name)) continue
    const dbPath = join(settings.dir, `${name}.db`)
    const started = Date.now()
    await seedDatabase(dbPath, stored)
    console.log(`\nseeded ${stored} links in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    reports.push(
      await redirectBench(
        {
          name: `${name}: ${stored} links stored, 1,000 hot, browser visits (every one counted)`,
          dbPath,
          paths: hotPaths(stored),
          userAgent: BROWSER,
        },
        settings,
      ),
    )
    // The figure a counted redirect holds on the large database.
    printRedirect(reports.at(-1)!, stored === 1_000_000 ? { cpuUs: 50, p99ms: 50 } : undefined)
  }
  if (wanted('redirect-2w')) {
    const dbPath = join(settings.dir, 'two-workers.db')
    await seedDatabase(dbPath, 1000)
    reports.push(
      await redirectBench(
        {
          name: 'redirect-2w: as redirect-1k, served by `slink serve --workers 2`',
          dbPath,
          paths: hotPaths(1000),
          userAgent: BROWSER,
          serveArgs: ['--workers', '2'],
        },
        settings,
      ),
    )
    printRedirect(reports.at(-1)!)
  }
  if (wanted('redirect-bots')) {
    const dbPath = join(settings.dir, 'bots.db')
    await seedDatabase(dbPath, 1000)
    reports.push(
      await redirectBench(
        {
          name: 'redirect-bots: 1,000 links, crawler visits (not counted: the redirect alone)',
          dbPath,
          paths: hotPaths(1000),
          userAgent: BOT,
        },
        settings,
      ),
    )
    printRedirect(reports.at(-1)!)
  }
  if (reports.length > 0)
    console.log(`
How to read this: the bare server does nothing but write a 302, so the ratio is the share of
that ceiling slink keeps while it finds the domain and link in its cache, applies the rules,
answers, and hands each click to the writer thread (which describes, aggregates and stores it).
Load generator and server share this machine's cores: on two cores the click writer competes
with the load generator, which the bare server does not have to.`)
  if (wanted('api')) {
    const count = Number(process.env.BENCH_API_LINKS ?? 1_000_000)
    const postgres = process.env.BENCH_DATABASE === 'postgres' ? await postgresTarget() : null
    const target: BenchTarget = postgres?.target ?? {
      kind: 'sqlite',
      path: join(settings.dir, 'api.db'),
    }
    try {
      const started = Date.now()
      await seedApiDatabase(target, count)
      console.log(
        `\nseeded ${count} links (${target.kind}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      )
      printApi(
        target.kind === 'postgres' ? 'PostgreSQL' : 'SQLite',
        count,
        await apiBench(target, count, settings),
      )
    } finally {
      await postgres?.drop()
    }
  }
  if (wanted('seed')) {
    const postgres = process.env.BENCH_DATABASE === 'postgres' ? await postgresTarget() : null
    const target: BenchTarget = postgres?.target ?? {
      kind: 'sqlite',
      path: join(settings.dir, 'seed.db'),
    }
    try {
      await seedApiDatabase(target, 10_000, 'Seed link ')
      const engine = target.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'
      printApi(
        `${engine}, search by a common word`,
        10_000,
        await apiBench(target, 10_000, settings, {
          scenarios: seedSearchScenarios(),
          pages: false,
        }),
      )
    } finally {
      await postgres?.drop()
    }
  }
  if (wanted('create-modes')) {
    // Creates served by one worker (the default run mode on SQLite) and by one worker per core,
    // each on a fresh copy of the same 1,000,000-link database. The default mode is the one
    // judged by the figure (no serve arguments); the other is measured beside it.
    const count = Number(process.env.BENCH_API_LINKS ?? 1_000_000)
    const create = apiScenarios(count).filter((s) => s.method === 'POST')
    for (const workers of [1, cpus().length]) {
      const path = join(settings.dir, `create-${workers}.db`)
      await seedApiDatabase({ kind: 'sqlite', path }, count)
      printApi(
        `SQLite, slink serve --workers ${workers}`,
        count,
        await apiBench({ kind: 'sqlite', path }, count, settings, {
          scenarios: create,
          ...(workers === 1 ? {} : { serveArgs: ['--workers', String(workers)] }),
          pages: false,
        }),
      )
    }
  }
  if (wanted('text')) {
    const count = Number(process.env.BENCH_API_LINKS ?? 1_000_000)
    const path = join(settings.dir, 'text.db')
    await seedApiDatabase({ kind: 'sqlite', path }, count)
    printText(count, await textBench(path, settings.rounds))
  }
  if (wanted('overload')) printOverload(await overloadBench(settings.dir, settings.connections))
  if (wanted('shutdown')) printShutdown(await shutdownBench(settings.dir))
  if (wanted('stats')) printStats(await statsBench(settings.dir))
  rmSync(settings.dir, { recursive: true, force: true })
}

main().catch((error: unknown) => {
  console.error(error)
  rmSync(settings.dir, { recursive: true, force: true })
  process.exit(1)
})
