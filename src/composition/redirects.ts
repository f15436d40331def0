/**
 * Builds the redirect side of the service over the same database and change feed as the API:
 * caches, the engine, rotation counters, the password gates (the link's and the statistics')
 * and the click recorder with its channel to the writer. This is the composition root of the
 * visitor-facing side: the domain folders (redirects/, clicks/, cluster/) only define parts.
 */
import { InlineChannel, WorkerChannel, type ClickChannel } from '../clicks/channel.js'
import { ClickDescriber } from '../clicks/describe.js'
import { ClickRecorder } from '../clicks/recorder.js'
import { clickStoreFor } from '../clicks/store.js'
import { VisitorHasher } from '../clicks/visitor-hash.js'
import { ClickWriter } from '../clicks/writer.js'
import { WebhookOutbox } from '../webhooks/outbox.js'
import type { Redis } from 'ioredis'
import { RedisRotationCounter, SqlRotationCounter } from '../cluster/rotation.js'
import type { Config } from '../config.js'
import type { Services } from './services.js'
import { sharedSecret } from '../db/settings.js'
import { MemoryCounters, type Counters } from '../limits/window-counters.js'
import { CountingAttemptLimiter } from '../limits/attempt-limiter.js'
import { RedirectEngine } from '../redirects/engine.js'
import { RedirectCache } from '../redirects/redirect-cache.js'
import { LocalRotationCounter } from '../redirects/rotation-counter.js'
import { SqlRedirectStore } from '../redirects/store.js'
import { PasswordGate } from '../passwords/gate.js'
import { StatsPasswordGate } from '../stats/password-gate.js'
import { useBundledGeoip, useGeoipDatabases } from '../visitors/geoip.js'

export interface RedirectOptions {
  /** Shared rotation counters for several processes (see src/cluster/). */
  redis?: Redis | null
  /** Where password and lookup attempts are counted (this process when absent). */
  counters?: Counters
  /** Other processes use the same database: counters must live in the database or Redis. */
  shared?: boolean
  onFlushError?: (error: unknown) => void
  /** Told when counted visits start (and stop) waiting for the click writer. */
  onOverload?: (overloaded: boolean, backlog: number) => void
  /** Write clicks in this thread instead of a worker thread (tests that run from source). */
  inlineClicks?: boolean
  now?: () => number
}

export async function createRedirects(
  services: Services,
  config: Config,
  options: RedirectOptions = {},
) {
  const store = new SqlRedirectStore(services.db)
  const cache = new RedirectCache(store, services.changes, {
    ttlMs: config.cacheTtlMs,
    maxLinks: 100_000,
  })
  const redis = options.redis ?? null
  const counter =
    options.shared || redis ? new SqlRotationCounter(services.db) : new LocalRotationCounter()
  const rotation = redis ? new RedisRotationCounter(redis, counter) : counter
  const counters = options.counters ?? new MemoryCounters()
  const limiter = (name: string, max: number) => new CountingAttemptLimiter(counters, name, max)
  const onError = options.onFlushError ?? (() => {})
  // GEOIP_DB is read once here; the click-writing thread shares these bytes without a copy.
  const geoip = config.geoipDb.length > 0 ? useGeoipDatabases(config.geoipDb) : useBundledGeoip()
  let channel: ClickChannel
  if (options.inlineClicks) {
    const hasher = new VisitorHasher(services.db)
    const outbox = new WebhookOutbox(services.db)
    const writer = new ClickWriter(
      clickStoreFor(services.db),
      hasher,
      new ClickDescriber(hasher),
      (rows) => outbox.planClicks(rows, Date.now()),
    )
    channel = new InlineChannel(writer, onError)
  } else {
    // The click-writing thread checkpoints the SQLite log (see threads/click-writer.ts): a checkpoint
    // copies pages into the database file and syncs it, which on the request thread stalled
    // every request for 30 to 300 ms a few times a second under a stream of API writes.
    services.db.sqlite?.pragma('wal_autocheckpoint = 0')
    channel = new WorkerChannel(
      new URL('../threads/click-writer.js', import.meta.url),
      config.database,
      onError,
      config.clickStreamUrl,
      geoip,
    )
  }
  const recorder = new ClickRecorder(
    channel,
    rotation,
    config.clickBacklog,
    options.onOverload ?? (() => {}),
  )
  const secret = await sharedSecret(services.db, 'cookie_secret')
  const now = options.now ?? Date.now
  // One limit for both purposes: the attempts are counted per purpose, link and address.
  const passwords = limiter('passwords', 10)
  const engine = new RedirectEngine(
    {
      cache,
      store,
      rotation,
      unknownAliases: limiter('lookups', 100),
      passwords: new PasswordGate('link', passwords, secret, now),
    },
    {
      redirectStatus: config.redirectStatus,
      pixelConsent: config.pixelConsent,
      // Every cache (here, in the other workers and on other machines) reloads the link.
      onExhausted: (link) =>
        services.changes.publish({
          kind: 'link',
          id: link.id,
          domainId: link.domainId,
          alias: link.alias,
        }),
      ...(options.now ? { now: options.now } : {}),
    },
  )
  const statsGate = new StatsPasswordGate(new PasswordGate('stats', passwords, secret, now))
  return { engine, cache, recorder, rotation, statsGate }
}

export type Redirects = Awaited<ReturnType<typeof createRedirects>>
