/**
 * The `overload` scenario of `npm run bench`: the click writer is kept from storing anything
 * (another connection holds SQLite's write lock) while wrk sends counted visits for
 * BENCH_OVERLOAD_SECONDS (10), with CLICK_BACKLOG at BENCH_OVERLOAD_BACKLOG (20,000); slink's resident memory is sampled all along. Then the lock is
 * released and the time until every click is stored is measured. What it shows: answers up to
 * the CLICK_BACKLOG bound, then visits held (not dropped), memory flat once the bound is reached,
 * and every answered visit stored afterwards.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { load, type LoadResult } from './load.js'
import { seedDatabase, storedClicks } from './seed.js'
import { startSlink } from './servers.js'

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

export interface OverloadReport {
  seconds: number
  backlog: number
  load: LoadResult
  rssBeforeMb: number
  rssPeakMb: number
  rssAtBoundMb: number[]
  drainMs: number
  stored: number
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024
}

export async function overloadBench(
  dir: string,
  connections: number,
  backlog = Number(process.env.BENCH_OVERLOAD_BACKLOG ?? 20_000),
): Promise<OverloadReport> {
  const seconds = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 10)
  const dbPath = join(dir, 'overload.db')
  await seedDatabase(dbPath, 1000)
  const slink = await startSlink(dbPath, [], { CLICK_BACKLOG: String(backlog) })
  const pid = slink.child.pid!
  const paths = Array.from({ length: 1000 }, (_, i) => `/b${i}`)
  const common = { port: slink.port, paths, connections, headers: { 'User-Agent': BROWSER }, dir }
  try {
    await load({ ...common, seconds: 2 })
    // Let the warm-up's clicks be stored before the lock.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const before = storedClicks(dbPath).clicks
    const rssBeforeMb = rssMb(pid)
    const samples: number[] = []
    const sampler = setInterval(() => samples.push(rssMb(pid)), 250)
    const lock = new SQLite(dbPath)
    lock.exec('BEGIN IMMEDIATE')
    let result: LoadResult
    try {
      result = await load({ ...common, seconds })
    } finally {
      clearInterval(sampler)
      lock.exec('ROLLBACK')
      lock.close()
    }
    const released = Date.now()
    // Everything answered (and the visits still held when the load stopped) gets stored.
    let stored = storedClicks(dbPath).clicks - before
    while (stored < result.requests && Date.now() - released < 120_000) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      stored = storedClicks(dbPath).clicks - before
    }
    const drainMs = Date.now() - released
    const code = await slink.stop()
    if (code !== 0) throw new Error(`slink exited with ${code}`)
    return {
      seconds,
      backlog,
      load: result,
      rssBeforeMb,
      rssPeakMb: Math.max(...samples),
      rssAtBoundMb: samples.slice(-4),
      drainMs,
      stored: storedClicks(dbPath).clicks - before,
    }
  } finally {
    slink.child.kill('SIGKILL')
  }
}

export function printOverload(report: OverloadReport): void {
  const l = report.load
  console.log(`
overload: the click writer stores nothing for ${report.seconds} s (SQLite write lock held elsewhere), CLICK_BACKLOG=${report.backlog}
  answered ${l.requests.toLocaleString('en')} counted visits in that time (p50 ${l.p50ms.toFixed(2)} ms, p99 ${l.p99ms.toFixed(2)} ms); then visits were held
  slink RSS: ${report.rssBeforeMb.toFixed(0)} MB before, peak ${report.rssPeakMb.toFixed(0)} MB, last samples ${report.rssAtBoundMb.map((m) => m.toFixed(0)).join(', ')} MB
  after the lock: ${report.stored.toLocaleString('en')} clicks stored in ${(report.drainMs / 1000).toFixed(1)} s (answered ${l.requests.toLocaleString('en')}; more stored than answered are the visits held when the load stopped, whose clients had gone)`)
}
