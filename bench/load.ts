/**
 * Load generation for the benchmarks: wrk (Debian's package) when it is installed, else
 * autocannon, each keeping every connection busy; or requests paced to a rate. All report
 * requests per second and latency percentiles.
 */
import { execFileSync, spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

export interface LoadResult {
  rps: number
  p50ms: number
  p99ms: number
  requests: number
  errors: number
}

export interface LoadOptions {
  port: number
  paths: string[]
  connections: number
  seconds: number
  headers: Record<string, string>
  dir: string
  /** GET unless told; a body (form-encoded) goes with every request. */
  method?: string
  body?: string
  /**
   * Requests a second, sent on a schedule (`paced`). Unset, each connection sends its next
   * request as soon as the last is answered: the server saturated.
   */
  rate?: number
}

export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' })
    return true
  } catch (error) {
    // wrk --version exits 1 after printing its version.
    return (error as { status?: number }).status === 1
  }
}

function toMs(value: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(value.trim())
  if (!m) return Number.NaN
  const n = Number(m[1])
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n
}

async function wrk(options: LoadOptions): Promise<LoadResult> {
  const script = join(options.dir, 'paths.lua')
  writeFileSync(
    script,
    `local paths = {${options.paths.map((p) => `"${p}"`).join(',')}}\n` +
      `local body = ${options.body === undefined ? 'nil' : JSON.stringify(options.body)}\n` +
      'local i = 0\nrequest = function()\n  i = i + 1\n' +
      `  return wrk.format("${options.method ?? 'GET'}", paths[(i % #paths) + 1], nil, body)\nend\n`,
  )
  const args = [
    '-t1',
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--latency',
    '-s',
    script,
  ]
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}: ${value}`)
  args.push(`http://127.0.0.1:${options.port}/`)
  // Run without blocking this process: the benches sample the server while the load runs.
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let text = ''
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
    child.on('error', reject)
    child.on('exit', () => resolve(text))
  })
  const line = (re: RegExp) => re.exec(out)?.[1] ?? 'NaN'
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? '0'
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    out,
  )
  return {
    rps: Number(line(/Requests\/sec:\s+([\d.]+)/)),
    p50ms: toMs(line(/\s50%\s+(\S+)/)),
    p99ms: toMs(line(/\s99%\s+(\S+)/)),
    requests: Number(line(/(\d+) requests in/)),
    errors:
      Number(errors) +
      (socketErrors ? socketErrors.slice(1).reduce((n, v) => n + Number(v), 0) : 0),
  }
}

async function autocannon(options: LoadOptions): Promise<LoadResult> {
  const { default: run } = await import('autocannon')
  const result = await run({
    url: `http://127.0.0.1:${options.port}`,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers,
    requests: options.paths.map((path) => ({
      method: (options.method ?? 'GET') as 'GET',
      path,
      ...(options.body === undefined ? {} : { body: options.body }),
    })),
  })
  return {
    rps: result.requests.average,
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
  }
}

/**
 * `rate` requests a second for `seconds`, each sent at its time on the schedule (evenly spaced)
 * over at most `connections` keep-alive connections, and timed from that scheduled time: a
 * request that waits for a free connection, or for a server behind schedule, is charged the wait
 * (autocannon's own `overallRate` sends each second's requests in one burst).
 */
async function paced(options: LoadOptions & { rate: number }): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections })
  const total = Math.round(options.rate * options.seconds)
  const latencies: number[] = []
  let errors = 0
  const send = (i: number, due: number) =>
    new Promise<void>((resolve) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port: options.port,
          path: options.paths[i % options.paths.length],
          method: options.method ?? 'GET',
          headers: options.headers,
          agent,
        },
        (response) => {
          response.resume()
          response.on('error', () => {
            errors++
            resolve()
          })
          response.on('end', () => {
            if (response.statusCode === undefined || response.statusCode >= 400) errors++
            latencies.push(performance.now() - due)
            resolve()
          })
        },
      )
      request.on('error', () => {
        errors++
        resolve()
      })
      request.end(options.body)
    })
  const started = performance.now()
  const dueAt = (i: number) => started + (i * 1000) / options.rate
  const pending: Promise<void>[] = []
  for (let i = 0; i < total;) {
    const now = performance.now()
    for (; i < total && dueAt(i) <= now; i++) pending.push(send(i, dueAt(i)))
    if (i < total) await sleep(Math.max(0, dueAt(i) - performance.now()))
  }
  await Promise.all(pending)
  const elapsed = (performance.now() - started) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN
  return {
    rps: latencies.length / elapsed,
    p50ms: at(0.5),
    p99ms: at(0.99),
    requests: latencies.length,
    errors,
  }
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  if (options.rate !== undefined) return paced({ ...options, rate: options.rate })
  return hasWrk() ? wrk(options) : autocannon(options)
}
