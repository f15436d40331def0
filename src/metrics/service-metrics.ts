/**
 * The service's metrics in the Prometheus text format, kept with prom-client in one registry
 * per process. In a cluster worker the registry answers the primary's requests over the
 * cluster's IPC (prom-client's AggregatorRegistry), so the primary serves one view of the
 * machine: counters and gauges summed over the workers, the oldest pending delivery's age as
 * the largest any worker saw. A visit costs a plain increment and one `observe` on a labelled
 * child made once; the rest is read when scraped.
 */
import cluster from 'node:cluster'
import {
  AggregatorRegistry,
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type PrometheusContentType,
} from 'prom-client'
import { OUTCOMES as IMPORT_OUTCOMES } from '../imports/planner.js'
import {
  VISIT_OUTCOMES,
  type DeliveryOutcome,
  type Metrics,
  type VisitOutcome,
} from '../shared/metrics.js'

/** Redirects are answered in well under a millisecond from the cache; a miss reads the database. */
const VISIT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5]
const GAUGES_NAMED_TOTAL = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
]
const DELIVERY_OUTCOMES: readonly DeliveryOutcome[] = ['delivered', 'retried', 'failed']

export interface ClickNumbers {
  /** Clicks recorded and not yet finished by the click writer. */
  readonly backlog: number
  /** Clicks the click writer has finished with since the process started. */
  readonly written: number
  /** Counted visits held, unanswered, until the backlog is below its bound again. */
  readonly waiting: number
}

export interface PoolNumbers {
  readonly totalCount: number
  readonly idleCount: number
  readonly waitingCount: number
}

interface Child {
  inc(): void
}

export class ServiceMetrics implements Metrics {
  readonly registry: Registry
  private readonly visitLatency: Histogram<'outcome'>
  private readonly visitLatencyOf: Record<VisitOutcome, { observe(value: number): void }>
  private readonly requests: Counter<'method' | 'route' | 'status'>
  private readonly deliveries: Record<DeliveryOutcome, Child>
  private readonly importRowsCounter: Counter<'outcome'>

  constructor() {
    // A worker's registry answers the primary (AggregatorRegistry listens once it is made).
    const registry = cluster.isWorker
      ? new AggregatorRegistry<PrometheusContentType>()
      : new Registry()
    if (cluster.isWorker) AggregatorRegistry.setRegistries([registry])
    this.registry = registry
    // Node's own: CPU, memory, heap, GC and event-loop delay (`nodejs_eventloop_lag_*`). The
    // three counts of active handles named `_total` are gauges, which Prometheus's lint rejects;
    // their per-type versions (`nodejs_active_handles`, …) stay.
    collectDefaultMetrics({ register: registry })
    for (const name of GAUGES_NAMED_TOTAL) registry.removeSingleMetric(name)
    const registers = [registry]

    // The duration histogram's count of each outcome, read when scraped: a visit is counted once.
    const latency = () => this.visitLatency
    new Counter({
      name: 'slink_redirects_total',
      help: 'Visits of short links answered, by outcome.',
      labelNames: ['outcome'],
      registers,
      async collect() {
        this.reset()
        for (const value of (await latency().get()).values) {
          if (value.metricName !== 'slink_redirect_duration_seconds_count') continue
          this.inc({ outcome: value.labels.outcome as VisitOutcome }, value.value)
        }
      },
    })
    const visitLatency = new Histogram({
      name: 'slink_redirect_duration_seconds',
      help: 'Time from a visit reaching the redirect engine to its answer being written, by outcome.',
      labelNames: ['outcome'],
      buckets: VISIT_BUCKETS,
      registers,
    })
    this.visitLatency = visitLatency
    this.visitLatencyOf = labelled(VISIT_OUTCOMES, (o) => {
      visitLatency.zero({ outcome: o })
      return visitLatency.labels(o)
    })

    this.requests = new Counter({
      name: 'slink_http_requests_total',
      help: 'Requests answered by the web framework (API, dashboard, forms), by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    })
    const deliveries = new Counter({
      name: 'slink_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome: delivered, retried (due again later) or failed (given up).',
      labelNames: ['outcome'],
      registers,
    })
    this.deliveries = labelled(DELIVERY_OUTCOMES, (o) => {
      deliveries.labels(o).inc(0)
      return deliveries.labels(o)
    })
    this.importRowsCounter = new Counter({
      name: 'slink_import_rows_total',
      help: 'Rows of imports run by this service, by outcome.',
      labelNames: ['outcome'],
      registers,
    })
    for (const outcome of IMPORT_OUTCOMES) this.importRowsCounter.labels(outcome).inc(0)
  }

  visit(outcome: VisitOutcome, seconds: number): void {
    this.visitLatencyOf[outcome].observe(seconds)
  }

  httpRequest(method: string, route: string, status: number): void {
    this.requests.labels(method, route, String(status)).inc()
  }

  webhookDelivery(outcome: DeliveryOutcome): void {
    this.deliveries[outcome].inc()
  }

  importRows(outcome: string, count: number): void {
    this.importRowsCounter.labels(outcome).inc(count)
  }

  /** Clicks written, the backlog and the visits held, read from the recorder when scraped. */
  watchClicks(clicks: ClickNumbers): void {
    let highest = 0
    new Counter({
      name: 'slink_clicks_written_total',
      help: 'Clicks the click writer has finished with (stored; or dropped past its limit, which it logs).',
      registers: [this.registry],
      collect() {
        // The thread's count can dip for a moment while a batch is written (the writer counts
        // it as waiting before the gatherer stops counting it as writing): the counter keeps
        // the highest count seen, so it never goes down.
        highest = Math.max(highest, clicks.written)
        this.reset()
        this.inc(highest)
      },
    })
    this.gaugeOf(
      'slink_click_backlog',
      'Clicks recorded and not yet written (bounded by CLICK_BACKLOG).',
      () => clicks.backlog,
    )
    this.gaugeOf(
      'slink_redirects_waiting',
      'Counted visits held unanswered while the click backlog is at CLICK_BACKLOG.',
      () => clicks.waiting,
    )
  }

  /**
   * The age of the oldest pending webhook delivery, read from the database when scraped
   * (`oldest` answers its creation time in ms, or null when none is pending).
   */
  watchPendingDeliveries(oldest: () => Promise<number | null>, now: () => number): void {
    new Gauge({
      name: 'slink_webhook_oldest_pending_seconds',
      help: 'Age of the oldest webhook delivery not yet delivered nor given up (0 when none).',
      aggregator: 'max',
      registers: [this.registry],
      async collect() {
        const at = await oldest()
        this.set(at === null ? 0 : Math.max(0, (now() - at) / 1000))
      },
    })
  }

  /** PostgreSQL's connection pool, read when scraped. */
  watchPool(pool: PoolNumbers): void {
    new Gauge({
      name: 'slink_db_pool_connections',
      help: 'PostgreSQL connections of the pool, by state: busy (checked out) or idle.',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        this.set({ state: 'busy' }, pool.totalCount - pool.idleCount)
        this.set({ state: 'idle' }, pool.idleCount)
      },
    })
    this.gaugeOf(
      'slink_db_pool_waiting',
      'Queries waiting for a PostgreSQL connection of the pool.',
      () => pool.waitingCount,
    )
  }

  /** A gauge without labels whose value is read when scraped. */
  private gaugeOf(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read())
      },
    })
  }

  /** The text of this process's metrics (the whole machine's when it serves alone). */
  text(): Promise<string> {
    return this.registry.metrics()
  }
}

function labelled<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, V>
}
