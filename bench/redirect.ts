/**
 * Redirect throughput against a bare node:http server answering 302, in the same run: both are
 * warmed up, then loaded in alternation, round after round, with the same load generator,
 * connections and paths. Each round gives a ratio (slink / bare); the median is reported.
 */
import { ThreadCpu, type CpuSplit } from './cpu.js'
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
  cpu: CpuSplit | null
  /** The bare server's, measured the same way over its own rounds. */
  bareCpu: CpuSplit | null
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
    // Summed over each server's own rounds only (the bare rounds in between cost slink nothing
    // but its writer finishing the last batch, which belongs to the clicks counted).
    const slinkCpu = new ThreadCpu(single ? slink.child.pid! : null)
    const bareCpu = new ThreadCpu(bare.child.pid ?? null)
    for (let i = 0; i < settings.rounds; i++) {
      const b = await bareCpu.during(() =>
        load({ ...common, port: bare.port, seconds: settings.seconds }),
      )
      const s = await slinkCpu.during(() =>
        load({ ...common, port: slink.port, seconds: settings.seconds }),
      )
      slinkRequests += s.requests
      rounds.push({ bare: b, slink: s, ratio: s.rps / b.rps })
    }
    await bare.stop()
    const code = await slink.stop()
    if (code !== 0) throw new Error(`slink exited with ${code}`)
    return {
      name: scenario.name,
      rounds,
      medianRatio: median(rounds.map((r) => r.ratio)),
      slinkP99ms: median(rounds.map((r) => r.slink.p99ms)),
      counted: { requests: slinkRequests, ...storedClicks(scenario.dbPath) },
      cpu: slinkCpu.split(),
      bareCpu: bareCpu.split(),
    }
  } finally {
    bare.child.kill('SIGKILL')
    slink.child.kill('SIGKILL')
  }
}
