/**
 * A real `slink serve` process on loopback with its own SQLite file, and a small HTTP client
 * that can set any Host header (the redirect picks the domain from it).
 */
import { sql } from 'kysely'
import { request, type Agent } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/connect.js'
import { serve, type ServeProcess } from './cli.js'

export const API_KEY = 'redirect-test-key-0123456789abcdefghij'
export const HOST = 'short.test'

export interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface RequestOptions {
  method?: string
  host?: string
  headers?: Record<string, string>
  body?: string
  /** A keep-alive agent, to send over one connection (so to one cluster worker). */
  agent?: Agent
  /** The loopback address to send from (127.0.0.1 unless told), to be another peer. */
  localAddress?: string
}

export interface TestServer {
  port: number
  dir: string
  dbPath: string
  process: ServeProcess
  /** Any request to the server, with `Host: short.test` unless told otherwise. */
  send(path: string, options?: RequestOptions): Promise<Reply>
  /** An API call with the test key; form-encodes `form`. */
  api(
    method: string,
    path: string,
    form?: Record<string, string | number>,
  ): Promise<Reply & { json: unknown }>
  stop(): Promise<number | null>
}

export function send(port: number, path: string, options: RequestOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? HOST, ...options.headers },
        agent: options.agent ?? false,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'slink-redirect-'))
  const dbPath = join(dir, 'redirect.db')
  const child = serve({
    DATABASE_URL: `sqlite:${dbPath}`,
    PORT: '0',
    PUBLIC_URL: `http://${HOST}`,
    INITIAL_API_KEY: API_KEY,
    API_RATE_LIMIT: '0',
    TITLE_FETCH: 'false',
    ...env,
  })
  const [, port] = await child.waitFor(/listening on port (\d+)/)
  const p = Number(port)
  return {
    port: p,
    dir,
    dbPath,
    process: child,
    send: (path, options) => send(p, path, options),
    async api(method, path, form) {
      const body = form
        ? Object.entries(form)
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
            .join('&')
        : undefined
      const reply = await send(p, `/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${API_KEY}`,
          ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(body !== undefined ? { body } : {}),
      })
      const isJson = String(reply.headers['content-type'] ?? '').startsWith('application/json')
      return { ...reply, json: reply.body && isJson ? (JSON.parse(reply.body) as unknown) : null }
    },
    async stop() {
      child.kill('SIGTERM')
      const code = await child.exited
      rmSync(dir, { recursive: true, force: true })
      return code
    },
  }
}

export const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/** Polls until `check` passes or `timeoutMs` runs out (for clicks flushed in the background). */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let value = await read()
  while (!check(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50))
    value = await read()
  }
  return value
}

/** What a link's clicks left in a served SQLite file: its counter and its click-log rows. */
export async function storedClicks(
  dbPath: string,
  linkId: number,
): Promise<{ clicks: number; rows: number }> {
  const db = openDatabase({ kind: 'sqlite', path: dbPath })
  try {
    // One statement, so one snapshot: the counter and the rows of the same commits.
    const { rows } = await sql<{ clicks: number | null; rows: number }>`
      SELECT (SELECT clicks FROM links WHERE id = ${linkId}) AS clicks,
        (SELECT count(*) FROM clicks WHERE link_id = ${linkId}) AS rows`.execute(db.kysely)
    const [read] = rows
    if (read?.clicks === null || read === undefined) throw new Error(`no link ${linkId}`)
    return { clicks: Number(read.clicks), rows: Number(read.rows) }
  } finally {
    await db.close()
  }
}
