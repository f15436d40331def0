/**
 * Clicks written as /metrics reports them: the click thread's count can dip for a moment while
 * a batch is written; the counter never goes down and the scrape never fails over it.
 */
import { describe, expect, it } from 'vitest'
import { ServiceMetrics } from '../../src/metrics/service-metrics.js'
import { sample, samples } from '../support/metrics.js'

describe('slink_clicks_written_total', () => {
  it('keeps the highest count the click thread reported', async () => {
    const clicks = { backlog: 0, written: 0, waiting: 0 }
    const metrics = new ServiceMetrics()
    metrics.watchClicks(clicks)
    const written = async () =>
      samples(await metrics.text()).get(sample('slink_clicks_written_total'))
    clicks.written = 5
    expect(await written()).toBe(5)
    clicks.written = -4
    expect(await written()).toBe(5)
    clicks.written = 3
    expect(await written()).toBe(5)
    clicks.written = 9
    expect(await written()).toBe(9)
  })
})
