/**
 * Overload: when the click writer cannot store clicks (here: another connection holds SQLite's
 * write lock), counted redirects are answered until CLICK_BACKLOG clicks wait, then wait for
 * room; none is dropped, and once the writer catches up every waiting visit is answered and
 * every click is stored.
 */
import SQLite from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { sample, samples } from '../support/metrics.js'
import { freePort } from '../support/ports.js'
import {
  BROWSER_UA,
  eventually,
  send,
  startServer,
  storedClicks,
  type TestServer,
} from '../support/server.js'

let s: TestServer | null = null
afterEach(async () => {
  await s?.stop()
  s = null
})

describe('a click writer that falls behind', () => {
  it('holds counted redirects past CLICK_BACKLOG, drops nothing, and answers them once it catches up', async () => {
    const metricsPort = await freePort()
    s = await startServer({ CLICK_BACKLOG: '20', METRICS_PORT: String(metricsPort) })
    const server = s
    const held = async () =>
      samples((await send(metricsPort, '/metrics')).body).get(sample('slink_redirects_waiting'))
    const made = await server.api('POST', '/links', {
      url: 'https://example.com/overload',
      domain_id: 1,
      alias: 'busy',
    })
    expect(made.status).toBe(201)
    const linkId = (made.json as { data: { id: number } }).data.id
    const visit = () => server.send('/busy', { headers: { 'user-agent': BROWSER_UA } })

    // The writer works: a visit is answered and stored.
    expect((await visit()).status).toBe(302)
    expect(
      await eventually(
        () => storedClicks(server.dbPath, linkId),
        (n) => n.rows === 1,
      ),
    ).toEqual({ clicks: 1, rows: 1 })

    // Another connection takes the write lock: the writer can store nothing from now on.
    const lock = new SQLite(server.dbPath)
    lock.exec('BEGIN IMMEDIATE')
    try {
      // Up to the bound, visits are answered at once.
      for (let i = 0; i < 20; i++) {
        const started = Date.now()
        const reply = await visit()
        expect(reply.status).toBe(302)
        expect(reply.headers.location).toBe('https://example.com/overload')
        expect(Date.now() - started).toBeLessThan(1000)
      }
      // Past it, counted visits wait: the service counts them held, and none is answered.
      expect(await held()).toBe(0)
      const answered: number[] = []
      const waiting = Array.from({ length: 5 }, () =>
        visit().then((reply) => {
          answered.push(reply.status)
          return reply
        }),
      )
      expect(await eventually(held, (n) => n === 5)).toBe(5)
      expect(answered).toEqual([])
      // A crawler's visit is not counted: it does not wait.
      const bot = await server.send('/busy', {
        headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' },
      })
      expect(bot.status).toBe(302)
      expect(answered).toEqual([])

      lock.exec('ROLLBACK')
      const replies = await Promise.all(waiting)
      expect(replies.map((r) => r.status)).toEqual([302, 302, 302, 302, 302])
      expect(await held()).toBe(0)
    } finally {
      if (lock.inTransaction) lock.exec('ROLLBACK')
      lock.close()
    }
    // Every counted visit is stored: 1 + 20 + 5.
    expect(
      await eventually(
        () => storedClicks(server.dbPath, linkId),
        (n) => n.rows === 26,
        5000,
      ),
    ).toEqual({ clicks: 26, rows: 26 })
  }, 60_000)
})
