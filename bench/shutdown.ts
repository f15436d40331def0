/**
 * The `shutdown` scenario of `npm run bench`: thousands of links are created (wrk, 5 s) towards
 * a destination that accepts connections and never answers, so every title fetch hangs; then
 * SIGTERM, timed to the process's exit. The links left waiting for their title are counted in
 * the database; the destination starts answering, slink starts again, and the time until every
 * pending fetch has been taken up (and the titles filled) is measured.
 */
import { createServer, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { load } from './load.js'
import { startSlink } from './servers.js'

const KEY = 'slk_benchShutdownKey0123456789abcdefghijklmn'

export interface ShutdownReport {
  created: number
  stopMs: number
  exitCode: number | null
  pendingAfterStop: number
  resumeMs: number
  titled: number
}

function counts(path: string): { links: number; pending: number; titled: number } {
  const db = new SQLite(path, { readonly: true })
  try {
    const one = (q: string) => Number(db.prepare(q).pluck().get())
    return {
      links: one('SELECT count(*) FROM links'),
      pending: one('SELECT count(*) FROM links WHERE title_fetch_at IS NOT NULL'),
      titled: one("SELECT count(*) FROM links WHERE title = 'Back again'"),
    }
  } finally {
    db.close()
  }
}

export async function shutdownBench(dir: string, seconds = 5): Promise<ShutdownReport> {
  let answering = false
  const sockets = new Set<Socket>()
  const destination: Server = createServer((_request, response) => {
    if (!answering) return // hangs: the fetch waits for its own timeout
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end('<title>Back again</title>')
  })
  destination.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve))
  const port = (destination.address() as { port: number }).port
  const dbPath = join(dir, 'shutdown.db')
  const env = {
    INITIAL_API_KEY: KEY,
    TITLE_FETCH: 'true',
    TITLE_FETCH_ALLOWED_HOSTS: '127.0.0.1',
  }
  try {
    const first = await startSlink(dbPath, [], env)
    await load({
      port: first.port,
      paths: ['/api/v1/links'],
      connections: 10,
      seconds,
      headers: {
        Authorization: `Bearer ${KEY}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      dir,
      method: 'POST',
      body: `url=${encodeURIComponent(`http://127.0.0.1:${port}/page`)}`,
    })
    const started = Date.now()
    const exitCode = await first.stop()
    const stopMs = Date.now() - started
    const afterStop = counts(dbPath)

    answering = true
    const second = await startSlink(dbPath, [], env)
    const resumed = Date.now()
    let now = counts(dbPath)
    while (now.pending > 0 && Date.now() - resumed < 120_000) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      now = counts(dbPath)
    }
    const resumeMs = Date.now() - resumed
    await second.stop()
    return {
      created: afterStop.links,
      stopMs,
      exitCode,
      pendingAfterStop: afterStop.pending,
      resumeMs,
      titled: counts(dbPath).titled,
    }
  } finally {
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => destination.close(() => resolve()))
  }
}

export function printShutdown(report: ShutdownReport): void {
  console.log(`
shutdown: SIGTERM after ${report.created.toLocaleString('en')} link creates whose title fetches all hang
  stopped in ${report.stopMs} ms (exit code ${report.exitCode}); ${report.pendingAfterStop.toLocaleString('en')} links left waiting for their title
  restarted with the destination answering: every pending fetch taken up in ${(report.resumeMs / 1000).toFixed(1)} s; ${report.titled.toLocaleString('en')} titles filled`)
}
