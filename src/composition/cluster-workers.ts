/**
 * `slink serve --workers N`: the primary prepares the database once, starts N worker processes
 * that share the listening port (the kernel spreads connections), relays change notifications
 * between them, replaces a worker that dies, and on SIGTERM or SIGINT stops them all gracefully
 * (each answers what is in flight and writes its pending clicks) before exiting. On SIGHUP it
 * replaces the workers one at a time with the code on disk (`rollOver`).
 */
import cluster, { type Worker } from 'node:cluster'
import type { Config } from '../config.js'
import { prepareDatabase } from './server.js'
import { serveCounters } from '../cluster/primary-counters.js'
import { relayBetweenWorkers } from '../cluster/relays.js'
import { startClickRetention } from './click-retention.js'
import { serveClusterMetrics } from './metrics.js'

interface Listening {
  slink: 'listening'
  port: number
}

function isListening(message: unknown): message is Listening {
  return (
    typeof message === 'object' && message !== null && (message as Listening).slink === 'listening'
  )
}

/** In a worker: tell the primary the service is up. */
export function reportListening(port: number): void {
  process.send?.({ slink: 'listening', port } satisfies Listening)
}

export async function serveWithWorkers(
  config: Config,
  count: number,
  say: (line: string) => void,
): Promise<void> {
  const greeting = await prepareDatabase(config, say)
  // Listening first: a port already taken stops the start before any worker runs.
  await serveClusterMetrics(config, (error) =>
    console.error(`gathering the workers' metrics failed: ${(error as Error).message}`),
  )
  cluster.schedulingPolicy = cluster.SCHED_NONE
  let stopping = false
  let announced = false
  const ready = new Set<number>()
  const countForWorker = serveCounters()
  const relay = relayBetweenWorkers(() =>
    Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w),
  )

  // Workers being replaced on SIGHUP: their exit is expected, not a crash to make up for.
  const retiring = new Set<number>()
  const fork = () => {
    const worker = cluster.fork({ SLINK_CLUSTER_WORKER: '1' })
    worker.on('message', (message: unknown) => {
      relay(worker.id, message)
      countForWorker(worker, message)
      if (!isListening(message)) return
      ready.add(worker.id)
      worker.emit('slink:listening')
      if (!announced && ready.size === count) {
        announced = true
        // Every worker accepts connections: the first user's link works from now on.
        for (const line of greeting) say(line)
        say(
          `slink is listening on port ${message.port} with ${count} workers; short links at ${config.publicUrl.origin}`,
        )
      }
    })
    return worker
  }
  // The primary keeps the raw click log to CLICK_LOG_DAYS for the machine's workers.
  const days = config.clickLogDays
  const retention =
    days === null
      ? null
      : startClickRetention(config.database, days, {
          passed: (removed) => {
            if (removed > 0) say(`removed ${removed} click-log rows older than ${days} days`)
          },
          failed: (error) => console.error(`${error.message}; will retry`),
        })
  cluster.on('exit', (worker, code, signal) => {
    ready.delete(worker.id)
    if (retiring.delete(worker.id)) return
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0)
        void Promise.resolve(retention?.stop()).then(() => process.exit(0))
      return
    }
    console.error(`worker ${worker.process.pid} stopped (${signal ?? code}); starting another`)
    fork()
  })
  for (let i = 0; i < count; i++) fork()

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    console.error(`${signal} received: stopping ${count} workers gracefully`)
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM')
    setTimeout(() => process.exit(1), 20_000).unref()
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)

  /**
   * One worker at a time: a new one is started (with the code on disk now) and, once it
   * listens, an old one is stopped gracefully (SIGTERM: it stops accepting, answers what is in
   * flight, writes its clicks), and the next waits for it to exit. So as many workers as asked
   * keep listening throughout, one more for a moment.
   */
  let rolling: Promise<void> | null = null
  const rollOver = async () => {
    const old = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w)
    say(`SIGHUP received: replacing ${old.length} workers one at a time`)
    for (const previous of old) {
      if (stopping) return
      const next = fork()
      const started = await new Promise<boolean>((resolve) => {
        next.once('slink:listening', () => resolve(true))
        next.once('exit', () => resolve(false))
      })
      if (!started) {
        console.error('a new worker stopped before listening; keeping the running ones')
        return
      }
      if (previous.isDead()) continue
      retiring.add(previous.id)
      const exited = new Promise((resolve) => previous.once('exit', resolve))
      previous.process.kill('SIGTERM')
      await exited
    }
    say(`replaced ${old.length} workers: all run the code on disk`)
  }
  process.on('SIGHUP', () => {
    if (stopping) return
    rolling = (rolling ?? Promise.resolve()).then(rollOver)
  })
}
