/**
 * The `stats` scenario of `npm run bench`: a real `slink serve` creates the first user (with
 * INITIAL_API_KEY) and one link through the API; a year of clicks (1,000,000 by default,
 * BENCH_STATS_CLICKS) is written through the real click path; then every name of the stats API
 * and the stats page, all over the whole year (366 days), are timed through the same server,
 * and the bytes stored per click are measured (file growth after a checkpoint, and per table).
 */
import { join } from 'node:path'
import { openDatabase } from '../src/db/connect.js'
import { STAT_NAMES } from '../src/stats/schema.js'
import { startSlink } from './servers.js'
import { closeConnections, get, post, time, type Timing } from './stats-http.js'
import { growthPerClick, sizeOf } from './stats-size.js'
import { writeYearOfClicks } from './stats-traffic.js'

const KEY = 'bench-stats-key-0123456789abcdefghij'
const DAYS = 366

export interface StatsReport {
  clicks: number
  countries: number
  writeMs: number
  period: { from: string; to: string }
  timings: { what: string; rows: number; timing: Timing }[]
  bytesPerClick: ReturnType<typeof growthPerClick>
}

interface ListBody {
  data: { value: string | null; count: number }[]
  meta: { total: number; last_page: number }
}

async function api(port: number, path: string): Promise<ListBody> {
  const answer = await get(port, `/api/v1${path}`, { authorization: `Bearer ${KEY}` })
  return JSON.parse(answer.body) as ListBody
}

/** The clicks of every page of a name: they must add up to all the clicks. */
async function sumOfPages(port: number, query: string): Promise<number> {
  let sum = 0
  for (let page = 1, last = 1; page <= last; page++) {
    const body = await api(port, `${query}&per_page=100&page=${page}`)
    last = body.meta.last_page
    sum += body.data.reduce((total, row) => total + row.count, 0)
  }
  return sum
}

export async function statsBench(dir: string): Promise<StatsReport> {
  const total = Number(process.env.BENCH_STATS_CLICKS ?? 1_000_000)
  const dbPath = join(dir, 'stats.db')
  const env = { INITIAL_API_KEY: KEY }
  const first = await startSlink(dbPath, [], env)
  const auth = { authorization: `Bearer ${KEY}` }
  const made = await post(first.port, '/api/v1/links', auth, {
    url: 'https://example.com/year',
    domain_id: '1',
    alias: 'year',
  })
  const link = (JSON.parse(made.body) as { data: { id: number; alias: string } }).data
  closeConnections()
  await first.stop()

  const db = openDatabase({ kind: 'sqlite', path: dbPath })
  const before = sizeOf(db.sqlite!, dbPath)
  const traffic = await writeYearOfClicks(db, link.id, total, DAYS)
  const after = sizeOf(db.sqlite!, dbPath)
  await db.close()

  const slink = await startSlink(dbPath, [], env)
  const to = new Date().toISOString().slice(0, 10)
  const from = new Date(Date.parse(to) - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10)
  const timings: StatsReport['timings'] = []
  try {
    for (const name of STAT_NAMES) {
      const query = `/stats/${link.id}?name=${name}&from=${from}&to=${to}`
      const sum = await sumOfPages(slink.port, query)
      if (sum !== traffic.clicks)
        throw new Error(`${name}: pages add up to ${sum}, not ${traffic.clicks}`)
      const rows = (await api(slink.port, `${query}&per_page=100`)).meta.total
      const path = `/api/v1${query}&per_page=100`
      timings.push({ what: `API ${name}`, rows, timing: await time(slink.port, path, auth) })
    }
    const csv = `/api/v1/stats/${link.id}?name=referrer&from=${from}&to=${to}&per_page=100&format=csv`
    timings.push({
      what: 'API referrer, CSV',
      rows: 100,
      timing: await time(slink.port, csv, auth),
    })
    const page = `/${link.alias}/stats?from=${from}&to=${to}`
    timings.push({ what: 'stats page', rows: DAYS, timing: await time(slink.port, page, {}) })
  } finally {
    closeConnections()
    await slink.stop()
  }
  return {
    clicks: traffic.clicks,
    countries: traffic.countries,
    writeMs: traffic.writeMs,
    period: { from, to },
    timings,
    bytesPerClick: growthPerClick(before, after, traffic.clicks),
  }
}

export function printStats(report: StatsReport): void {
  console.log(
    `\nstats: one link, ${report.clicks} clicks over ${DAYS} days (${report.period.from} to ${report.period.to}), written through the click path in ${(report.writeMs / 1000).toFixed(1)} s`,
  )
  console.log(
    '  request (whole year, per_page=100)      values   median     p90      max     bytes',
  )
  for (const { what, rows, timing } of report.timings) {
    const ms = (n: number) => `${n.toFixed(2).padStart(7)}`
    console.log(
      `  ${what.padEnd(38)} ${String(rows).padStart(6)} ${ms(timing.medianMs)} ${ms(timing.p90Ms)} ${ms(timing.maxMs)} ${String(timing.bytes).padStart(9)}`,
    )
  }
  const b = report.bytesPerClick
  console.log(`  bytes stored per click: ${b.file.toFixed(1)} (file growth after a checkpoint)`)
  for (const [name, perClick] of b.objects)
    console.log(`    ${name.padEnd(36)} ${perClick.toFixed(1)}`)
}
