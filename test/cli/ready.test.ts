/**
 * `/ready` of the real `slink serve` with Redis configured (a Redis server of the test's own):
 * 200 while everything answers, 503 naming Redis once it is gone while `/health` stays 200,
 * and 200 again once Redis is back; and a service started while its Redis is down serves, says so
 * in one line, and is not ready until Redis answers.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { redisCheck } from '../support/cluster.js'
import { eventually, startServer } from '../support/server.js'
import { freePort } from '../support/ports.js'

const redisInstalled = await redisCheck()

function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  )
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('Ready to accept connections')) resolve(child)
    })
    child.on('error', reject)
  })
}

describe.skipIf(!redisInstalled.ok)('GET /ready of slink serve', () => {
  it('answers 200 while the database, its schema and Redis answer, 503 naming Redis while it is gone', async () => {
    const redisPort = await freePort()
    let redis = await startRedis(redisPort)
    const server = await startServer({
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      LOG_LEVEL: 'error',
    })
    try {
      const up = await server.send('/ready')
      expect(up.status).toBe(200)
      expect(up.headers['cache-control']).toBe('no-store')
      expect(JSON.parse(up.body)).toEqual({
        status: 'ready',
        checks: { database: 'ok', schema: 'ok', redis: 'ok' },
      })

      redis.kill('SIGKILL')
      await server.process.waitFor(/"msg":"Redis is unreachable"/, 5000)
      const down = await server.send('/ready')
      expect(down.status).toBe(503)
      expect(JSON.parse(down.body)).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', schema: 'ok', redis: 'unreachable' },
      })
      expect((await server.send('/health')).status).toBe(200)

      redis = await startRedis(redisPort)
      // The client reconnects by itself (retrying every 2 s at most).
      const again = await eventually(
        async () => (await server.send('/ready')).status,
        (status) => status === 200,
        10_000,
      )
      expect(again).toBe(200)
    } finally {
      await server.stop()
      redis.kill('SIGKILL')
    }
  })
  it('starts while its Redis is down: one line says so, /health is 200 and /ready 503 until Redis answers', async () => {
    const redisPort = await freePort()
    const server = await startServer({
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      LOG_LEVEL: 'error',
    })
    let redis: ChildProcess | null = null
    try {
      await server.process.waitFor(/^Redis is unreachable: connect ECONNREFUSED/m, 5000)
      expect((await server.send('/health')).status).toBe(200)
      const down = await server.send('/ready')
      expect(down.status).toBe(503)
      expect(JSON.parse(down.body)).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', schema: 'ok', redis: 'unreachable' },
      })

      redis = await startRedis(redisPort)
      const again = await eventually(
        async () => (await server.send('/ready')).status,
        (status) => status === 200,
        10_000,
      )
      expect(again).toBe(200)
    } finally {
      await server.stop()
      redis?.kill('SIGKILL')
    }
  })
})
