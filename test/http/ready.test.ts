import { once } from 'node:events'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/composition/app.js'
import { connectRedis } from '../../src/cluster/redis.js'
import { createTestApp, type TestApp } from '../support/app.js'
import { REDIS_URL, redisCheck } from '../support/cluster.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

/** Without Redis this test skips with the check's one-line reason (under CI=true it fails). */
const redisReady = await redisCheck()

describe('GET /ready', () => {
  it('answers 200 when the database answers and its schema is current', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ready' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', schema: 'ok' } })
  })

  it('answers 503 naming the schema while a migration is not applied, 200 again once it is', async () => {
    const name = '0019-short-key-prefixes'
    const row = await sql<{
      timestamp: string
    }>`select timestamp from kysely_migration where name = ${name}`.execute(t.services.db.kysely)
    expect(row.rows).toHaveLength(1)
    await sql`delete from kysely_migration where name = ${name}`.execute(t.services.db.kysely)
    const res = await t.app.inject({ method: 'GET', url: '/ready' })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', schema: '1 migration not applied' },
    })
    await sql`insert into kysely_migration (name, timestamp) values (${name}, ${row.rows[0]!.timestamp})`.execute(
      t.services.db.kysely,
    )
    expect((await t.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200)
  })

  it('answers 503 naming the database when it does not answer; /health stays 200', async () => {
    const other = await createTestApp()
    try {
      expect((await other.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200)
      await other.services.db.close()
      const res = await other.app.inject({ method: 'GET', url: '/ready' })
      expect(res.statusCode).toBe(503)
      expect(res.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'unreachable', schema: 'not checked' },
      })
      const health = await other.app.inject({ method: 'GET', url: '/health' })
      expect(health.statusCode).toBe(200)
      expect(health.json()).toEqual({ status: 'ok' })
    } finally {
      // The database is closed already; the rest is removed.
      await other.app.close()
      await other.close().catch(() => {})
    }
  })

  it.skipIf(!redisReady.ok)(
    'asks Redis too when it is configured: 200 while it answers, 503 naming it when it does not',
    async () => {
      const redis = connectRedis(REDIS_URL, () => {})
      const app = await buildApp({
        config: t.config,
        services: t.services,
        defaultDomainId: () => t.defaultDomainId,
        redis,
      })
      try {
        if (redis.status !== 'ready') await once(redis, 'ready')
        const up = await app.inject({ method: 'GET', url: '/ready' })
        expect(up.statusCode).toBe(200)
        expect(up.json()).toEqual({
          status: 'ready',
          checks: { database: 'ok', schema: 'ok', redis: 'ok' },
        })
        redis.disconnect()
        const down = await app.inject({ method: 'GET', url: '/ready' })
        expect(down.statusCode).toBe(503)
        expect(down.json()).toEqual({
          status: 'unavailable',
          checks: { database: 'ok', schema: 'ok', redis: 'unreachable' },
        })
      } finally {
        redis.disconnect()
        await app.close()
      }
    },
  )

  it('is never taken by a short link: ready is a reserved alias', async () => {
    const res = await t.call('POST', '/api/v1/links', {
      form: { url: 'https://example.com/', alias: 'Ready' },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toEqual({ message: { alias: ['The alias is reserved.'] }, status: 422 })
  })
})
