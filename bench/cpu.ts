/**
 * CPU time of a server's threads while it is loaded, from /proc: what a request costs the
 * machine, apart from how the load generator shares the cores with it. A ratio of throughputs
 * moves with the machine (and with how often the load generator is asleep when an answer
 * arrives); microseconds of CPU a request move much less.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'

/** CPU per request in µs: the main thread, the busiest other thread, all others together. */
export interface CpuSplit {
  requestThread: number
  writer: number
  others: number
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

/**
 * Adds up a process's CPU, thread by thread, over the stretches measured with `during` (the
 * timed runs only, not the warm-up or the other server's turns). Null pid, or no /proc: the
 * split is null.
 */
export class ThreadCpu {
  private readonly spent = new Map<number, number>()
  private requests = 0

  constructor(private readonly pid: number | null) {
    if (pid !== null && !existsSync(`/proc/${pid}/task`)) this.pid = null
  }

  /** Runs one timed load and counts the CPU the process spent meanwhile. */
  async during<T extends { requests: number }>(run: () => Promise<T>): Promise<T> {
    const before = this.pid === null ? null : threadTicks(this.pid)
    const result = await run()
    if (before !== null) {
      for (const [tid, t] of threadTicks(this.pid!))
        this.spent.set(tid, (this.spent.get(tid) ?? 0) + t - (before.get(tid) ?? 0))
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
    }
  }
}

export const totalOf = (cpu: CpuSplit) => cpu.requestThread + cpu.writer + cpu.others

/**
 * The line a bench prints for a scenario: slink's CPU a request, thread by thread, beside the
 * bare server's, and the bare server's share of slink's (its CPU ratio, which the load
 * generator's share of the cores does not move). Null without a split of slink's.
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
    `other threads ${us(slink.others)}`
  const line = `  CPU per request: slink ${us(totalOf(slink))} (${parts})`
  if (bare === null) return line
  const ratio = totalOf(bare) / totalOf(slink)
  return `${line}; bare server ${us(totalOf(bare))}; CPU ratio ${ratio.toFixed(3)}`
}
