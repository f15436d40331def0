/**
 * CPU time of a server's threads while it is loaded, from /proc: what a request costs the
 * machine, apart from how the load generator shares the cores with it. A ratio of throughputs
 * moves with the machine (and with how often the load generator is asleep when an answer
 * arrives); microseconds of CPU a request move much less.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'

/**
 * CPU per request in µs: the main thread, the busiest other thread, all others together, and
 * (when asked for) the processes of a database server on the same machine.
 */
export interface CpuSplit {
  requestThread: number
  writer: number
  others: number
  database?: number
}

/** User and system time in a `/proc/…/stat` file, in clock ticks (1/100 s). */
function ticksIn(statFile: string): number {
  const stat = readFileSync(statFile, 'utf8')
  // Fields after the command name (which may hold spaces): utime is the 14th, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

/**
 * CPU time of each thread of a process and of its child processes (the workers of
 * `slink serve --workers N`), in clock ticks, from /proc.
 */
function threadTicks(pid: number, ticks = new Map<number, number>()): Map<number, number> {
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ticks.set(Number(tid), ticksIn(`/proc/${pid}/task/${tid}/stat`))
      const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim()
      for (const child of children === '' ? [] : children.split(' ')) {
        threadTicks(Number(child), ticks)
      }
    } catch {
      // A thread or process gone meanwhile.
    }
  }
  return ticks
}

/**
 * CPU time of every process of this name (its `comm`, such as `postgres`: the server and each of
 * its backends), by pid, in clock ticks.
 */
function processTicks(name: string): Map<number, number> {
  const ticks = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== name) continue
      ticks.set(Number(entry), ticksIn(`/proc/${entry}/stat`))
    } catch {
      // Gone meanwhile.
    }
  }
  return ticks
}

/** What the processes spent between two readings (a process new since the first, all of it). */
function spentBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0
  for (const [pid, t] of after) sum += t - (before.get(pid) ?? 0)
  return sum
}

/**
 * Adds up a process's CPU, thread by thread, over the stretches measured with `during` (the
 * timed runs only, not the warm-up or the other server's turns), and optionally that of a
 * database server's processes (`database`: their name) over the same stretches; a backend that
 * ends within a stretch is not counted. Null pid, or no /proc: the split is null.
 */
export class ThreadCpu {
  private readonly spent = new Map<number, number>()
  private databaseTicks = 0
  private requests = 0

  constructor(
    private readonly pid: number | null,
    private readonly database: string | null = null,
  ) {
    if (pid !== null && !existsSync(`/proc/${pid}/task`)) this.pid = null
  }

  /** Runs one timed load and counts the CPU the process spent meanwhile. */
  async during<T extends { requests: number }>(run: () => Promise<T>): Promise<T> {
    const before = this.pid === null ? null : threadTicks(this.pid)
    const databaseBefore =
      this.pid === null || this.database === null ? null : processTicks(this.database)
    const result = await run()
    if (before !== null) {
      for (const [tid, t] of threadTicks(this.pid!))
        this.spent.set(tid, (this.spent.get(tid) ?? 0) + t - (before.get(tid) ?? 0))
    }
    if (databaseBefore !== null) {
      this.databaseTicks += spentBetween(databaseBefore, processTicks(this.database!))
    }
    this.requests += result.requests
    return result
  }

  /** µs a request, over every run counted. */
  split(): CpuSplit | null {
    if (this.pid === null || this.requests === 0) return null
    const main = this.spent.get(this.pid) ?? 0
    const rest = [...this.spent]
      .filter(([tid]) => tid !== this.pid)
      .map(([, ticks]) => ticks)
      .sort((a, b) => b - a)
    const perRequest = (ticks: number) => (ticks * 10_000) / this.requests
    return {
      requestThread: perRequest(main),
      writer: perRequest(rest[0] ?? 0),
      others: perRequest(rest.slice(1).reduce((n, t) => n + t, 0)),
      ...(this.database === null ? {} : { database: perRequest(this.databaseTicks) }),
    }
  }
}

/** A request's CPU in all: the server's threads and, where it was measured, its database's. */
export const totalOf = (cpu: CpuSplit) =>
  cpu.requestThread + cpu.writer + cpu.others + (cpu.database ?? 0)

/**
 * The line a bench prints for a scenario: slink's CPU a request, thread by thread (and its
 * database server's, when measured), beside the bare server's, and the bare server's share of
 * slink's (its CPU ratio, which the load generator's share of the cores does not move). Null
 * without a split of slink's.
 */
export function cpuLine(
  slink: CpuSplit | null,
  bare: CpuSplit | null,
  writerName: string,
): string | null {
  if (slink === null) return null
  const us = (n: number) => `${n.toFixed(1)} µs`
  const parts =
    `request thread ${us(slink.requestThread)}, ${writerName} ${us(slink.writer)}, ` +
    `other threads ${us(slink.others)}` +
    (slink.database === undefined ? '' : `, database server ${us(slink.database)}`)
  const who = slink.database === undefined ? 'slink' : 'slink with its database'
  const line = `  CPU per request: ${who} ${us(totalOf(slink))} (${parts})`
  if (bare === null) return line
  const ratio = totalOf(bare) / totalOf(slink)
  return `${line}; bare server ${us(totalOf(bare))}; CPU ratio ${ratio.toFixed(3)}`
}

/** What a scenario must hold: CPU a request (all of slink's threads) and p99 latency. */
export interface Figure {
  cpuUs: number
  p99ms: number
}

/**
 * The line that says whether a scenario held its figure: slink's CPU a request (its own threads,
 * not its database server's) and a p99 (named by `p99Name`). Null without a figure.
 */
export function figureLine(
  slink: CpuSplit | null,
  p99ms: number,
  figure: Figure | undefined,
  p99Name = 'p99',
): string | null {
  if (figure === undefined) return null
  const cpu = slink === null ? null : totalOf({ ...slink, database: 0 })
  const met = cpu !== null && cpu <= figure.cpuUs && p99ms <= figure.p99ms
  const measured = cpu === null ? 'not measured' : `${cpu.toFixed(0)} µs`
  return (
    `  figure: CPU ${measured} a request (≤ ${figure.cpuUs} µs), ${p99Name} ${p99ms.toFixed(1)} ms ` +
    `(≤ ${figure.p99ms} ms): ${met ? 'met' : 'NOT met'}`
  )
}
