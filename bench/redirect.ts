/**
 * Redirect throughput against a bare node:http server answering 302, in the same run: both are
 * warmed up, then loaded in alternation, round after round, with the same load generator,
 * connections and paths. Each round gives a ratio (slink / bare); the median is reported.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { load, type LoadResult } from './load.js'
import { startBare, startSlink } from './servers.js'
import { storedClicks } from './seed.js'

export interface RedirectScenario {
  name: string
  dbPath: string
  /** Paths requested in turn (the hot set). */
  paths: string[]
  userAgent: string
  serveArgs?: string[]
}

export interface RedirectReport {
  name: string
  rounds: { bare: LoadResult; slink: LoadResult; ratio: number }[]
  medianRatio: number
  slinkP99ms: number
  counted: { requests: number; clicks: number; rows: number }
  /**
   * CPU per request over the timed rounds, in µs: the request thread (the process's main
   * thread), the busiest other thread (the click writer) and every other thread together (GC
   * helpers, libuv), from /proc; null where /proc is not there or the server is a cluster.
   */
  cpu: { requestThread: number; writer: number; others: number } | null
}

/** CPU time of each thread of a process, in clock ticks (1/100 s), from /proc. */
function threadTicks(pid: number): Map<number, number> {
  const ticks = new Map<number, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces): utime is the 14th, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]))
  }
  return ticks
}

function cpuSplit(
  pid: number,
  before: Map<number, number>,
  after: Map<number, number>,
  requests: number,
): RedirectReport['cpu'] {
  const used = [...after].map(([tid, t]) => ({ tid, ticks: t - (before.get(tid) ?? 0) }))
  const main = used.find((u) => u.tid === pid)?.ticks ?? 0
  const rest = used.filter((u) => u.tid !== pid).sort((a, b) => b.ticks - a.ticks)
  const writer = rest[0]?.ticks ?? 0
  const others = rest.slice(1).reduce((n, u) => n + u.ticks, 0)
  const perRequest = (ticks: number) => (ticks * 10_000) / requests
  return {
    requestThread: perRequest(main),
    writer: perRequest(writer),
    others: perRequest(others),
  }
}

export interface BenchSettings {
  rounds: number
  seconds: number
  connections: number
  dir: string
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export async function redirectBench(
  scenario: RedirectScenario,
  settings: BenchSettings,
): Promise<RedirectReport> {
  const bare = await startBare(settings.dir)
  const slink = await startSlink(scenario.dbPath, scenario.serveArgs)
  const common = {
    paths: scenario.paths,
    connections: settings.connections,
    headers: { 'User-Agent': scenario.userAgent },
    dir: settings.dir,
  }
  let slinkRequests = 0
  try {
    // Warm-up: JIT, caches (every hot link loaded once), connection set-up.
    await load({ ...common, port: bare.port, seconds: 2 })
    slinkRequests += (await load({ ...common, port: slink.port, seconds: 2 })).requests
    const rounds: RedirectReport['rounds'] = []
    const single = !scenario.serveArgs?.includes('--workers') && slink.child.pid !== undefined
    const pid = slink.child.pid!
    let timedRequests = 0
    const spent = new Map<number, number>()
    for (let i = 0; i < settings.rounds; i++) {
      const b = await load({ ...common, port: bare.port, seconds: settings.seconds })
      const before = single ? threadTicks(pid) : null
      const s = await load({ ...common, port: slink.port, seconds: settings.seconds })
      if (before) {
        // Summed over the slink rounds only (the bare rounds in between cost slink nothing
        // but its writer finishing the last batch, which belongs to the clicks counted).
        for (const [tid, t] of threadTicks(pid))
          spent.set(tid, (spent.get(tid) ?? 0) + t - (before.get(tid) ?? 0))
      }
      timedRequests += s.requests
      slinkRequests += s.requests
      rounds.push({ bare: b, slink: s, ratio: s.rps / b.rps })
    }
    const cpu = single ? cpuSplit(pid, new Map(), spent, timedRequests) : null
    await bare.stop()
    const code = await slink.stop()
    if (code !== 0) throw new Error(`slink exited with ${code}`)
    return {
      name: scenario.name,
      rounds,
      medianRatio: median(rounds.map((r) => r.ratio)),
      slinkP99ms: median(rounds.map((r) => r.slink.p99ms)),
      counted: { requests: slinkRequests, ...storedClicks(scenario.dbPath) },
      cpu,
    }
  } finally {
    bare.child.kill('SIGKILL')
    slink.child.kill('SIGKILL')
  }
}
