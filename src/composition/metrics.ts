/**
 * Metrics for operators (METRICS_PORT): each serving process keeps its own (src/metrics/), and
 * the process that owns the machine's view serves them: a lone process its own, the cluster
 * primary those of all its workers, gathered over the cluster's IPC when scraped.
 */
import { AggregatorRegistry, type PrometheusContentType } from 'prom-client'
import type { Config } from '../config.js'
import type { Db } from '../db/connect.js'
import { listenForMetrics, type MetricsEndpoint } from '../metrics/endpoint.js'
import { ServiceMetrics, type ClickNumbers } from '../metrics/service-metrics.js'

/** The metrics of this process, or null when METRICS_PORT is not set. */
export function createMetrics(config: Config): ServiceMetrics | null {
  return config.metricsPort === null ? null : new ServiceMetrics()
}

export interface Watched {
  db: Db
  clicks: ClickNumbers
  oldestPendingDelivery: () => Promise<number | null>
  now?: () => number
}

/**
 * Reads the numbers kept elsewhere when scraped; then, for a lone process, listens on
 * METRICS_PORT. SQLite has no pool to report: one connection per process, used in turn.
 */
export async function observeService(
  config: Config,
  metrics: ServiceMetrics,
  watched: Watched,
  options: { listen: boolean; log: (error: unknown) => void },
): Promise<MetricsEndpoint | null> {
  metrics.watchClicks(watched.clicks)
  metrics.watchPendingDeliveries(watched.oldestPendingDelivery, watched.now ?? Date.now)
  const pool = watched.db.pool()
  if (pool !== null) metrics.watchPool(pool)
  if (!options.listen || config.metricsPort === null) return null
  return listenForMetrics({
    port: config.metricsPort,
    host: config.host,
    token: config.metricsToken,
    contentType: metrics.registry.contentType,
    text: () => metrics.text(),
    onError: options.log,
  })
}

/** In the cluster primary: serves the sum of the workers' metrics, or does nothing when off. */
export async function serveClusterMetrics(
  config: Config,
  log: (error: unknown) => void,
): Promise<MetricsEndpoint | null> {
  if (config.metricsPort === null) return null
  const aggregator = new AggregatorRegistry<PrometheusContentType>()
  return listenForMetrics({
    port: config.metricsPort,
    host: config.host,
    token: config.metricsToken,
    contentType: aggregator.contentType,
    text: () => aggregator.clusterMetrics(),
    onError: log,
  })
}
