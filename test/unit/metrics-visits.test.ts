/**
 * Visits as /metrics reports them: `slink_redirects_total` is the duration histogram's count of
 * each outcome, not a count of its own, so the two always agree (a reset of the registry included).
 */
import { describe, expect, it } from 'vitest'
import { ServiceMetrics } from '../../src/metrics/service-metrics.js'
import { sample, samples } from '../support/metrics.js'

describe('slink_redirects_total', () => {
  it('is the duration histogram’s count of each outcome', async () => {
    const metrics = new ServiceMetrics()
    metrics.visit('redirected', 0.001)
    metrics.visit('redirected', 0.002)
    metrics.visit('bot', 0.001)
    const read = async () => {
      const all = samples(await metrics.text())
      return ['redirected', 'bot', 'error'].map((outcome) => [
        all.get(sample('slink_redirects_total', { outcome })),
        all.get(sample('slink_redirect_duration_seconds_count', { outcome })),
      ])
    }
    expect(await read()).toEqual([
      [2, 2],
      [1, 1],
      [0, 0],
    ])
    metrics.registry.resetMetrics()
    metrics.visit('bot', 0.001)
    expect(await read()).toEqual([
      [undefined, undefined],
      [1, 1],
      [undefined, undefined],
    ])
  })
})
