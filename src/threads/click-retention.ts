/**
 * The thread that keeps the raw click log to CLICK_LOG_DAYS (clicks/retention.ts): a pass as it
 * starts, then every hour, each reported to the process that started it. Its own database
 * connection waits for SQLite's write lock here, never on a thread that answers requests.
 * On `close` it ends the pass after the batch under way and closes the database.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { DatabaseConfig } from '../config.js'
import { openDatabase } from '../db/connect.js'
import { removeOldClicks, RETENTION_PASS_MS } from '../clicks/retention.js'

export type FromRetentionThread =
  { type: 'pass'; removed: number } | { type: 'error'; message: string } | { type: 'closed' }

const port = parentPort!
const { database, days } = workerData as { database: DatabaseConfig; days: number }
const db = openDatabase(database)
const stopping = new AbortController()
const say = (message: FromRetentionThread) => port.postMessage(message)

let running: Promise<void> = Promise.resolve()
const pass = () => {
  running = running.then(() =>
    stopping.signal.aborted
      ? undefined
      : removeOldClicks(db, days, { signal: stopping.signal }).then(
          (removed) => say({ type: 'pass', removed }),
          (error: Error) => say({ type: 'error', message: error.message }),
        ),
  )
}
pass()
const passes = setInterval(pass, RETENTION_PASS_MS)

port.on('message', (message: { type: 'close' }) => {
  if (message.type !== 'close') return
  clearInterval(passes)
  stopping.abort()
  void running.then(() => db.close()).then(() => say({ type: 'closed' }))
})
