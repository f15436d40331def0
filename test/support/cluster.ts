/**
 * Several real `slink serve` processes sharing one PostgreSQL database (made for the test and
 * dropped after) and, optionally, one Redis database (flushed before and after).
 */
import { Redis } from 'ioredis'
import { serve, type ServeProcess } from './cli.js'
import { emptyPostgres, type ServiceCheck } from './databases.js'
import { API_KEY, HOST, send, type Reply, type RequestOptions } from './server.js'

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

export async function redisCheck(): Promise<ServiceCheck> {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: () => null,
  })
  try {
    await client.connect()
    await client.ping()
    return { ok: true, reason: '' }
  } catch (error) {
    const reason = `Redis not reachable at ${REDIS_URL}: ${(error as Error).message}`
    if (process.env.CI === 'true') throw new Error(`${reason} (required under CI=true)`)
    console.warn(`skipping Redis tests: ${reason}`)
    return { ok: false, reason }
  } finally {
    client.disconnect()
  }
}

export interface Node {
  port: number
  process: ServeProcess
  send(path: string, options?: RequestOptions): Promise<Reply>
  api(
    method: string,
    path: string,
    form?: Record<string, string | number>,
  ): Promise<Reply & { json: unknown }>
}

export interface TestCluster {
  nodes: Node[]
  databaseUrl: string
  redisUrl: string | null
  /** SIGTERM to every process; resolves with their exit codes. */
  stopAll(): Promise<(number | null)[]>
  drop(): Promise<void>
}

function formOf(form: Record<string, string | number>): string {
  return Object.entries(form)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&')
}

export async function startNode(env: Record<string, string>): Promise<Node> {
  const child = serve({
    PORT: '0',
    PUBLIC_URL: `http://${HOST}`,
    INITIAL_API_KEY: API_KEY,
    TITLE_FETCH: 'false',
    ...env,
  })
  const [, port] = await child.waitFor(/listening on port (\d+)/)
  const p = Number(port)
  return {
    port: p,
    process: child,
    send: (path, options) => send(p, path, options),
    async api(method, path, form) {
      const body = form ? formOf(form) : undefined
      const reply = await send(p, `/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${API_KEY}`,
          ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(body !== undefined ? { body } : {}),
      })
      return { ...reply, json: reply.body ? (JSON.parse(reply.body) as unknown) : null }
    },
  }
}

let nextRedisDb = 1 + (process.pid % 14)

export async function startCluster(
  count: number,
  options: { redis: boolean; env?: Record<string, string> },
): Promise<TestCluster> {
  const database = await emptyPostgres()
  let redisUrl: string | null = null
  if (options.redis) {
    redisUrl = `${REDIS_URL}/${nextRedisDb}`
    nextRedisDb = 1 + (nextRedisDb % 15)
    const client = new Redis(redisUrl)
    await client.flushdb()
    client.disconnect()
  }
  const env = {
    DATABASE_URL: database.url,
    API_RATE_LIMIT: '0',
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...options.env,
  }
  const nodes: Node[] = []
  // One after the other: the first migrates and creates the user; the others find them.
  for (let i = 0; i < count; i++) nodes.push(await startNode(env))
  return {
    nodes,
    databaseUrl: database.url,
    redisUrl,
    async stopAll() {
      for (const node of nodes) node.process.kill('SIGTERM')
      return Promise.all(nodes.map((n) => n.process.exited))
    },
    async drop() {
      for (const node of nodes) node.process.kill('SIGKILL')
      await Promise.all(nodes.map((n) => n.process.exited))
      await database.drop()
      if (redisUrl) {
        const client = new Redis(redisUrl)
        await client.flushdb()
        client.disconnect()
      }
    },
  }
}
