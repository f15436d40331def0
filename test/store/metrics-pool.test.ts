/**
 * The PostgreSQL pool as /metrics reports it: connections checked out and idle, and queries
 * waiting, read from the real pool when scraped.
 */
import { describe, expect, it } from 'vitest'
import { ServiceMetrics } from '../../src/metrics/service-metrics.js'
import { freshPostgres, postgresCheck } from '../support/databases.js'
import { sample, samples } from '../support/metrics.js'

const postgres = await postgresCheck()

describe.skipIf(!postgres.ok)('the database pool in /metrics', () => {
  it('reports the PostgreSQL pool: busy, idle and waiting', async () => {
    const { db, drop } = await freshPostgres('metrics_pool')
    try {
      const pool = db.pool()!
      const metrics = new ServiceMetrics()
      metrics.watchPool(pool)
      const held = await pool.connect()
      const during = samples(await metrics.text())
      expect(during.get(sample('slink_db_pool_connections', { state: 'busy' }))).toBe(1)
      expect(during.get(sample('slink_db_pool_connections', { state: 'idle' }))).toBe(
        pool.totalCount - 1,
      )
      expect(during.get(sample('slink_db_pool_waiting'))).toBe(0)
      held.release()
      const after = samples(await metrics.text())
      expect(after.get(sample('slink_db_pool_connections', { state: 'busy' }))).toBe(0)
      expect(after.get(sample('slink_db_pool_connections', { state: 'idle' }))).toBe(
        pool.totalCount,
      )
    } finally {
      await drop()
    }
  })
})
