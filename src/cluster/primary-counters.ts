/**
 * Limit counters for the workers of one machine without Redis: the cluster primary holds them
 * (one `MemoryCounters`), and each worker asks it over the cluster's IPC channel, so every
 * limit is counted once per machine whichever worker answers. Should the primary not answer
 * within a second, a worker counts for itself meanwhile.
 */
import { MemoryCounters, type Counters, type WindowCount } from '../limits/window-counters.js'

interface CountRequest {
  slink: 'count'
  id: number
  op: 'incr' | 'peek' | 'release'
  key: string
  windowMs: number
}

interface CountReply {
  slink: 'counted'
  id: number
  count: WindowCount
}

function isRequest(message: unknown): message is CountRequest {
  return (
    typeof message === 'object' && message !== null && (message as CountRequest).slink === 'count'
  )
}

function isReply(message: unknown): message is CountReply {
  return (
    typeof message === 'object' && message !== null && (message as CountReply).slink === 'counted'
  )
}

const TIMEOUT_MS = 1000

/** In a cluster worker: counters kept by the primary. */
export class PrimaryCounters implements Counters {
  private readonly pending = new Map<number, (count: WindowCount) => void>()
  private readonly fallback = new MemoryCounters()
  private nextId = 1
  private readonly onMessage = (message: unknown) => {
    if (!isReply(message)) return
    this.pending.get(message.id)?.(message.count)
  }

  constructor(private readonly send: (message: CountRequest) => void) {
    process.on('message', this.onMessage)
  }

  incr(key: string, windowMs: number): Promise<WindowCount> {
    return this.ask('incr', key, windowMs)
  }

  peek(key: string, windowMs: number): Promise<WindowCount> {
    return this.ask('peek', key, windowMs)
  }

  release(key: string, windowMs: number): Promise<WindowCount> {
    return this.ask('release', key, windowMs)
  }

  close(): void {
    process.off('message', this.onMessage)
  }

  private ask(op: CountRequest['op'], key: string, windowMs: number): Promise<WindowCount> {
    const id = this.nextId++
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        resolve(this.fallback[op](key, windowMs))
      }, TIMEOUT_MS)
      this.pending.set(id, (count) => {
        clearTimeout(timer)
        this.pending.delete(id)
        resolve(count)
      })
      try {
        this.send({ slink: 'count', id, op, key, windowMs })
      } catch {
        clearTimeout(timer)
        this.pending.delete(id)
        resolve(this.fallback[op](key, windowMs))
      }
    })
  }
}

/** In the cluster primary: answers the workers' count requests from one set of counters. */
export function serveCounters(counters = new MemoryCounters()) {
  return (worker: { send(message: unknown): boolean }, message: unknown): void => {
    if (!isRequest(message)) return
    const count = counters[message.op](message.key, message.windowMs)
    worker.send({ slink: 'counted', id: message.id, count } satisfies CountReply)
  }
}
