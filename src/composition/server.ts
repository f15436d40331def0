/**
 * Runs the service: opens and migrates the database, makes sure there is a first user and a
 * default domain, listens, and shuts down gracefully (stop accepting, answer what is in
 * flight, finish background work, close the database).
 */
import cluster from 'node:cluster'
import type { FastifyInstance } from 'fastify'
import { buildApp, signInLimits } from './app.js'
import type { Config } from '../config.js'
import { openDatabase } from '../db/connect.js'
import { migrate } from '../db/migrate.js'
import { drain } from '../http/draining.js'
import { HEARTBEAT_MS } from '../imports/run.js'
import { connectRedis } from '../cluster/redis.js'
import { PrimaryCounters } from '../cluster/primary-counters.js'
import { RedisCounters } from '../cluster/redis-counters.js'
import { relayOverRedis, relayThroughPrimary } from '../cluster/relays.js'
import { MemoryCounters, type Counters } from '../limits/window-counters.js'
import { createRedirects, type Redirects } from './redirects.js'
import { startClickRetention } from './click-retention.js'
import { createMetrics, observeService } from './metrics.js'
import { createServices, serviceOptionsFrom, type Services } from './services.js'
import { IDLE_TIMEOUT_MS } from '../sessions/service.js'
import { RedisSessionStore } from '../sessions/redis-store.js'
import { passwordLink } from '../users/accounts.js'
import { rememberPublicUrl } from '../db/settings.js'
import { WebhookDispatcher } from '../webhooks/dispatcher.js'

/** How long a stopping cluster worker lets keep-alive connections end by themselves, at most. */
const WORKER_DRAIN_MS = 2000

export interface RunningService {
  app: FastifyInstance
  services: Services
  redirects: Redirects
  /** The port actually bound (useful with PORT=0). */
  port: number
  stop(): Promise<void>
}

export interface StartOptions {
  /** A cluster worker: the primary has migrated and set up; changes go through the primary. */
  worker?: boolean
}

/**
 * Migrations, the first user and the default domain: done once, before serving. Returns what
 * to tell about a first user just made (its key, its one-time sign-in link), to be said once the
 * port accepts connections, so the link works the moment it is printed.
 */
export async function prepareDatabase(
  config: Config,
  say: (line: string) => void,
): Promise<string[]> {
  const db = openDatabase(config.database, say)
  try {
    await migrate(db)
    const services = createServices(db, { titleFetch: false })
    const first = await services.users.ensureFirstUser(config.initialApiKey)
    await services.domains.ensureDefault(config.publicUrl)
    await rememberPublicUrl(db, config.publicUrl)
    if (!first) return []
    const token = await services.accounts.issueToken(first.userId)
    return [
      ...(first.apiKey
        ? [
            `Created the first user (${first.email}). Its API key, shown only this once:`,
            first.apiKey,
          ]
        : [`Created the first user (${first.email}); its key is INITIAL_API_KEY.`]),
      'Set its password and sign in to the dashboard (one-time link, valid 24 hours):',
      passwordLink(config.publicUrl, token),
    ]
  } finally {
    await db.close()
  }
}

export async function startService(
  config: Config,
  say: (line: string) => void = console.log,
  options: StartOptions = {},
): Promise<RunningService> {
  const greeting = options.worker ? [] : await prepareDatabase(config, say)
  const db = openDatabase(config.database)
  // Until the app (and its logger) exists, errors go to `say`.
  let logError = (error: unknown, message: string) =>
    say(`${message}: ${error instanceof Error ? error.message : String(error)}`)
  const log = (message: string) => (error: unknown) => logError(error, message)
  const redis = config.redisUrl ? connectRedis(config.redisUrl, log('Redis is unreachable')) : null
  const metrics = createMetrics(config)
  const services = createServices(db, {
    ...serviceOptionsFrom(config),
    metrics: metrics ?? undefined,
    ...(redis ? { sessionStore: new RedisSessionStore(redis, IDLE_TIMEOUT_MS / 1000) } : {}),
    log,
  })
  const defaultDomain = await services.domains.ensureDefault(config.publicUrl)
  const subscriber = config.redisUrl ? connectRedis(config.redisUrl, () => {}, true) : null
  const stopRelay =
    redis && subscriber
      ? relayOverRedis(services.changes, redis, subscriber)
      : options.worker
        ? relayThroughPrimary(services.changes)
        : async () => {}
  // Limits are counted once per machine (the cluster primary), or across machines (Redis).
  const counters: Counters = redis
    ? new RedisCounters(redis)
    : options.worker
      ? new PrimaryCounters((message) => process.send?.(message))
      : new MemoryCounters()
  const redirects = await createRedirects(services, config, {
    redis,
    counters,
    shared: options.worker === true || config.database.kind === 'postgres',
    onFlushError: log('writing clicks failed; will retry'),
    onOverload: (overloaded, backlog) =>
      overloaded
        ? app.log.warn(
            { backlog },
            'the click writer is behind by CLICK_BACKLOG clicks: counted redirects wait for it (no click is dropped)',
          )
        : app.log.info(
            { backlog },
            'the click writer has caught up: counted redirects answer at once',
          ),
  })
  const app = await buildApp({
    config,
    services,
    redirects,
    signInLimits: signInLimits(counters),
    defaultDomainId: () => defaultDomain.id,
    counters,
    redis,
    metrics: metrics ?? undefined,
  })
  logError = (error, message) => app.log.error({ err: error }, message)
  // Every process sends webhook deliveries; claims make each one go out once.
  const dispatcher = new WebhookDispatcher(db, {
    policy: services.webhookPolicy,
    onError: log('sending webhooks failed; will retry'),
    metrics: metrics ?? undefined,
  })
  // A cluster worker's metrics are served by the primary (composition/cluster-workers.ts).
  const metricsEndpoint = metrics
    ? await observeService(
        config,
        metrics,
        {
          db,
          clicks: redirects.recorder,
          oldestPendingDelivery: () => dispatcher.oldestPendingAt(),
        },
        { listen: !options.worker, log: log('gathering metrics failed') },
      )
    : null
  services.onDeliveriesQueued(() => dispatcher.nudge())
  // Imports whose process is gone end `failed` (docs/import.md): before the first answer,
  // and as they go stale.
  const sweepImports = () => services.imports.failAbandoned().catch(log('import sweep failed'))
  await sweepImports()
  const importSweep = setInterval(() => void sweepImports(), HEARTBEAT_MS)
  importSweep.unref()
  await app.listen({ port: config.port, host: config.host })
  for (const line of greeting) say(line)
  dispatcher.start()
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  if (!options.worker) {
    say(`slink is listening on port ${port}; short links at ${config.publicUrl.origin}`)
  }

  // Title fetches left pending by the last stop are taken up again, by one process of the
  // machine (the only one, or the first worker); stopping aborts those in flight (they stay
  // pending in the database) instead of waiting for them.
  const resuming =
    !options.worker || cluster.worker?.id === 1
      ? services.titles?.resume().catch(log('resuming title fetches failed'))
      : undefined
  // The raw click log is kept to CLICK_LOG_DAYS by one process of the machine (a cluster's
  // primary, see composition/cluster-workers.ts).
  const days = config.clickLogDays
  const retention =
    !options.worker && days !== null
      ? startClickRetention(config.database, days, {
          passed: (removed) => {
            if (removed > 0) app.log.info({ removed, days }, 'removed old click-log rows')
          },
          failed: log('removing old click-log rows failed; will retry'),
        })
      : null
  const titlesStopped = async () => {
    await services.titles?.stop()
    await resuming
  }
  let stopping: Promise<void> | null = null
  const stop = () =>
    (stopping ??= (async () => {
      // A cluster worker (stopped on SIGTERM, or replaced on SIGHUP) first lets each keep-alive
      // connection end after its next answer, while its siblings take the new connections.
      if (options.worker) await drain(app.server, WORKER_DRAIN_MS)
      // Keep-alive connections that finish their last response while closing are dropped promptly.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100)
      try {
        await app.close()
      } finally {
        clearInterval(sweep)
      }
      clearInterval(importSweep)
      await services.imports.interrupt()
      await redirects.recorder.close()
      await dispatcher.stop()
      await stopRelay()
      if (counters instanceof PrimaryCounters) counters.close()
      await Promise.all([redis?.quit().catch(() => {}), subscriber?.quit().catch(() => {})])
      await titlesStopped()
      await retention?.stop()
      await metricsEndpoint?.close()
      await db.close()
    })())
  return { app, services, redirects, port, stop }
}

/**
 * SIGTERM and SIGINT (once or several times) stop the service gracefully, then exit. Installed
 * before the service starts, so a signal that arrives while it starts is not lost.
 */
export function stopOnSignals(
  starting: Promise<RunningService>,
  log: (line: string) => void = console.error,
): void {
  let handled = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (handled) return
    handled = true
    log(`${signal} received: finishing in-flight requests and stopping`)
    const force = setTimeout(() => {
      log('shutdown took longer than 15 s; exiting')
      process.exit(1)
    }, 15_000)
    force.unref()
    starting
      .then((service) => service.stop())
      .then(
        () => process.exit(0),
        (error: Error) => {
          log(`shutdown failed: ${error.message}`)
          process.exit(1)
        },
      )
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)
}
