/**
 * Where recorded clicks go to be written. `WorkerChannel` hands them to a worker thread, so
 * describing and writing clicks never takes time from answering redirects; `InlineChannel`
 * writes in the same thread (for tools and tests that run without a build). Both gather what
 * they receive and write it at most GATHER_MS later, in one transaction.
 */
import { Worker } from 'node:worker_threads'
import type { DatabaseConfig } from '../config.js'
import type { ClickColumns } from './columns.js'
import { ClickGatherer } from './gatherer.js'
import type { ClickWriter } from './writer.js'

export interface ClickChannel {
  send(columns: ClickColumns): void
  /** Clicks sent and not yet stored (nor dropped) by the writer. */
  readonly backlog: number
  /** Clicks the writer has stored (or dropped) since the channel opened. */
  readonly written: number
  /** Called when the backlog shrinks. */
  onProgress(listener: () => void): void
  /** Resolves when everything sent so far is written (or has failed once and is kept). */
  settled(): Promise<void>
  /** Writes what is left and releases the channel. */
  close(): Promise<void>
}

export class InlineChannel implements ClickChannel {
  private readonly gatherer: ClickGatherer

  constructor(writer: ClickWriter, onError: (error: unknown) => void) {
    this.gatherer = new ClickGatherer(writer, onError)
  }

  send(columns: ClickColumns): void {
    this.gatherer.add(columns)
  }

  /** Written in this thread: nothing is ever behind that the request thread waits for. */
  readonly backlog = 0

  get written(): number {
    return this.gatherer.finished
  }

  onProgress(): void {}

  settled(): Promise<void> {
    return this.gatherer.writeNow()
  }

  close(): Promise<void> {
    return this.gatherer.close()
  }
}

type FromWorker =
  | { type: 'settled'; id: number }
  | { type: 'error'; message: string }
  | { type: 'closed' }
  | { type: 'finished'; count: number }

export class WorkerChannel implements ClickChannel {
  private readonly worker: Worker
  private asked = 0
  private readonly waiters = new Map<number, () => void>()
  private closing: Promise<void> | null = null
  private sent = 0
  private finished = 0
  private readonly progress: (() => void)[] = []

  /**
   * `script`: the worker thread's entry, its own file (threads/click-writer.ts), started by the
   * composition root. `clickStreamUrl`: the thread also publishes the click stream there
   * (clicks/stream-publisher.ts). `geoip`: the city databases this process read (GEOIP_DB),
   * shared with the thread as they are (visitors/geoip.ts).
   */
  constructor(
    script: URL,
    database: DatabaseConfig,
    onError: (error: unknown) => void,
    clickStreamUrl: string | null = null,
    geoip: readonly SharedArrayBuffer[] = [],
  ) {
    this.worker = new Worker(script, { workerData: { database, clickStreamUrl, geoip } })
    this.worker.on('message', (message: FromWorker) => {
      if (message.type === 'finished') {
        this.finished = message.count
        for (const listener of this.progress) listener()
      } else if (message.type === 'settled') {
        this.waiters.get(message.id)?.()
        this.waiters.delete(message.id)
      } else if (message.type === 'error') {
        onError(new Error(message.message))
      }
    })
    this.worker.on('error', onError)
  }

  send(columns: ClickColumns): void {
    this.sent += columns.linkIds.length
    this.worker.postMessage({ type: 'clicks', columns })
  }

  get backlog(): number {
    return this.sent - this.finished
  }

  /** As the thread last reported it (its `finished` messages). */
  get written(): number {
    return this.finished
  }

  onProgress(listener: () => void): void {
    this.progress.push(listener)
  }

  settled(): Promise<void> {
    const id = ++this.asked
    return new Promise((resolve) => {
      this.waiters.set(id, resolve)
      this.worker.postMessage({ type: 'settle', id })
    })
  }

  close(): Promise<void> {
    return (this.closing ??= new Promise<void>((resolve) => {
      this.worker.once('exit', () => resolve())
      this.worker.on('message', (message: FromWorker) => {
        if (message.type === 'closed') void this.worker.terminate()
      })
      this.worker.postMessage({ type: 'close' })
    }))
  }
}
