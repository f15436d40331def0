/**
 * The click-writing thread: gathers the clicks the request thread hands over and writes them
 * with its own database connection. On `close` it writes what is left, closes the database and
 * says so.
 */
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import type { DatabaseConfig } from '../config.js'
import { checkpoint } from '../db/checkpoint.js'
import { openDatabase } from '../db/connect.js'
import type { ClickColumns } from '../clicks/columns.js'
import { ClickDescriber } from '../clicks/describe.js'
import { ClickGatherer } from '../clicks/gatherer.js'
import { forgetClicksOfDeletedLinks, ORPHAN_SWEEP_MS } from '../clicks/orphans.js'
import { clickStoreFor, type ClickStore } from '../clicks/store.js'
import { planStreamEvents } from '../clicks/stream-events.js'
import { ClickStreamPublisher } from '../clicks/stream-publisher.js'
import { streamSinkFor } from '../clicks/stream-sinks.js'
import { VisitorHasher } from '../clicks/visitor-hash.js'
import { WebhookOutbox } from '../webhooks/outbox.js'
import { ClickWriter } from '../clicks/writer.js'
import { adoptGeoipDatabases } from '../visitors/geoip.js'

type ToWorker =
  { type: 'clicks'; columns: ClickColumns } | { type: 'settle'; id: number } | { type: 'close' }

const port = parentPort!
const CHECKPOINT_MS = 1000

/**
 * Writing clicks yields to answering requests: on Linux this thread gets a lower scheduling
 * priority (nice 10) than the request thread, so under full load the redirects keep the CPU and
 * the writer catches up in the gaps. Elsewhere the priority stays as it is.
 */
function yieldToRequests(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (Number.isInteger(tid)) setPriority(tid, 10)
  } catch {
    // Not Linux, or not permitted: same priority as the request thread.
  }
}
yieldToRequests()
const { database, clickStreamUrl, geoip } = workerData as {
  database: DatabaseConfig
  clickStreamUrl: string | null
  geoip: SharedArrayBuffer[]
}
if (geoip.length > 0) adoptGeoipDatabases(geoip)
const db = openDatabase(database)
const hasher = new VisitorHasher(db)
const outbox = new WebhookOutbox(db)
// click.recorded deliveries, in batches, for the users whose webhooks hear clicks: planned and
// written here, off the request thread, in the clicks' own transaction (the request path does
// no more work).
// CLICK_STREAM_URL: each batch's events are written with its clicks (the outbox `click_stream`),
// and published from here after the batch commits (clicks/stream-publisher.ts).
const publisher =
  clickStreamUrl === null
    ? null
    : new ClickStreamPublisher(db, streamSinkFor(clickStreamUrl), (error) =>
        port.postMessage({
          type: 'error',
          message: `publishing the click stream failed; will retry: ${(error as Error).message}`,
        }),
      )
const stored = clickStoreFor(db)
const store: ClickStore = publisher
  ? {
      write: async (batch) => {
        await stored.write(batch)
        if (batch.stream?.length) publisher.nudge()
      },
    }
  : stored
const writer = new ClickWriter(
  store,
  hasher,
  new ClickDescriber(hasher),
  (rows) => outbox.planClicks(rows, Date.now()),
  publisher ? (rows) => planStreamEvents(db, rows) : undefined,
)
publisher?.start()
const gatherer = new ClickGatherer(writer, (error) => {
  const message = error instanceof Error ? error.message : String(error)
  port.postMessage({
    type: 'error',
    message: `writing clicks failed (${writer.waiting} kept for a retry): ${message}`,
  })
})

// Clicks of deleted links leave the log in the background (soon after start, then hourly).
const sweep = () =>
  forgetClicksOfDeletedLinks(db).catch((error: Error) =>
    port.postMessage({
      type: 'error',
      message: `removing clicks of deleted links failed: ${error.message}`,
    }),
  )
const firstSweep = setTimeout(sweep, 30_000)
const sweeps = setInterval(sweep, ORPHAN_SWEEP_MS)
firstSweep.unref()
sweeps.unref()

// This thread's connection checkpoints the SQLite log for the whole process (the request
// thread's connection does not, see composition/redirects.ts): after its own commits, as
// SQLite does by default, and every second for the request thread's writes, starting a long
// log over (db/checkpoint.ts).
const checkpoints = setInterval(() => {
  try {
    if (db.sqlite) checkpoint(db.sqlite)
  } catch (error) {
    port.postMessage({
      type: 'error',
      message: `checkpointing the database log failed: ${(error as Error).message}`,
    })
  }
}, CHECKPOINT_MS)
checkpoints.unref()

// The request thread bounds what it hands over by what is finished here (see ClickRecorder).
let reported = 0
const reportProgress = () => {
  const finished = gatherer.finished
  if (finished !== reported) {
    reported = finished
    port.postMessage({ type: 'finished', count: finished })
  }
}
const progress = setInterval(reportProgress, 50)
progress.unref()

port.on('message', (message: ToWorker) => {
  if (message.type === 'clicks') gatherer.add(message.columns)
  else if (message.type === 'settle') {
    void gatherer.writeNow().then(() => port.postMessage({ type: 'settled', id: message.id }))
  } else {
    clearTimeout(firstSweep)
    clearInterval(sweeps)
    clearInterval(progress)
    clearInterval(checkpoints)
    void gatherer
      .close()
      .then(() => publisher?.stop())
      .then(() => db.close())
      .then(() => port.postMessage({ type: 'closed' }))
  }
})
