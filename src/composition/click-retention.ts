/**
 * Starts the click-log retention thread (threads/click-retention.ts) when CLICK_LOG_DAYS is set:
 * in the one process that runs it for a machine (the only process, or the cluster's primary).
 */
import { Worker } from 'node:worker_threads'
import type { DatabaseConfig } from '../config.js'
import type { FromRetentionThread } from '../threads/click-retention.js'

export interface ClickRetention {
  /** Ends the pass under way after its current batch, and the thread. */
  stop(): Promise<void>
}

export interface RetentionReports {
  /** After each pass, with the number of rows it removed. */
  passed(removed: number): void
  failed(error: Error): void
}

export function startClickRetention(
  database: DatabaseConfig,
  days: number,
  reports: RetentionReports,
): ClickRetention {
  const worker = new Worker(new URL('../threads/click-retention.js', import.meta.url), {
    workerData: { database, days },
  })
  worker.on('message', (message: FromRetentionThread) => {
    if (message.type === 'pass') reports.passed(message.removed)
    else if (message.type === 'error')
      reports.failed(new Error(`removing old click-log rows failed: ${message.message}`))
    else if (message.type === 'closed') void worker.terminate()
  })
  worker.on('error', (error) => reports.failed(error))
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  let stopping: Promise<void> | null = null
  return {
    stop: () => {
      if (stopping === null) {
        worker.postMessage({ type: 'close' })
        stopping = exited
      }
      return stopping
    },
  }
}
