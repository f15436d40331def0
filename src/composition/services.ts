/**
 * Wires the stores and services together over one database. The HTTP app, the CLI and the
 * tests all build the same graph from here.
 */
import type { Config } from '../config.js'
import type { Db } from '../db/connect.js'
import type { LinkRow } from '../db/types.js'
import { DomainService } from '../domains/service.js'
import { ImportService } from '../imports/service.js'
import { SqlImportStore } from '../imports/store.js'
import { SqlDomainStore } from '../domains/store.js'
import { DomainEvents } from '../events/bus.js'
import { invalidateCacheOnEvents } from '../events/cache-invalidation.js'
import type { LinkSnapshot, LinkSnapshotsOf } from '../events/types.js'
import { QrCodes } from '../links/qr-codes.js'
import { linkPresenter } from '../links/record.js'
import { LinkService } from '../links/service.js'
import { SqlLinkStore } from '../links/store.js'
import { TitleQueue } from '../links/title-queue.js'
import type { TitleFetchOptions } from '../links/title-fetch.js'
import { PixelService } from '../pixels/service.js'
import { SqlPixelStore } from '../pixels/store.js'
import { Changes } from '../shared/changes.js'
import { ownDomainOf } from '../shared/domain-name.js'
import { SpaceService } from '../spaces/service.js'
import { SqlSpaceStore } from '../spaces/store.js'
import { TagService } from '../tags/service.js'
import { SqlTagStore } from '../tags/store.js'
import { AccountOverviewService, SqlAccountTotalsStore } from '../stats/account-overview.js'
import { StatsService } from '../stats/service.js'
import { SqlStatsStore } from '../stats/sql-store.js'
import { SessionService } from '../sessions/service.js'
import { SqlSessionStore } from '../sessions/sql-store.js'
import type { SessionStore } from '../sessions/store.js'
import { AccountService } from '../users/accounts.js'
import { UserService } from '../users/service.js'
import { allowListPolicy, PUBLIC_ONLY, type AddressPolicy } from '../outbound/address-policy.js'
import { WebhookOutbox } from '../webhooks/outbox.js'
import { WebhookService } from '../webhooks/service.js'
import { SqlWebhookStore } from '../webhooks/store.js'
import { SqlUserStore } from '../users/store.js'
import { UtmTemplateService } from '../utm/service.js'
import { SqlUtmTemplateStore } from '../utm/store.js'
import type { Metrics } from '../shared/metrics.js'

export interface ServiceOptions {
  /** Title fetching: off, or on with these options (tests allow loopback destinations). */
  titleFetch: false | TitleFetchOptions
  /** Where webhooks may point (public addresses only unless told otherwise). */
  webhookPolicy?: AddressPolicy
  now?: () => number
  /** Where dashboard sessions live (default: the database). */
  sessionStore?: SessionStore
  /** Random aliases of new links (tests script them; see LinkServiceDeps). */
  randomAlias?: (attempt: number) => string
  /** The service's own address (`PUBLIC_URL`), whose host no one may add as a domain. */
  publicUrl?: URL
  /** Where work done after an answer reports a failure (the server's log). */
  log?: (message: string) => (error: unknown) => void
  /** Where imported rows are counted (nowhere when absent). */
  metrics?: Metrics
}

export function createServices(db: Db, options: ServiceOptions) {
  const stores = {
    users: new SqlUserStore(db),
    domains: new SqlDomainStore(db),
    spaces: new SqlSpaceStore(db),
    pixels: new SqlPixelStore(db),
    tags: new SqlTagStore(db),
    links: new SqlLinkStore(
      db,
      options.log?.('folding the rows of a count of links failed; the next list tries again'),
    ),
  }
  const now = options.now ?? Date.now
  const changes = new Changes()
  const events = new DomainEvents(db)
  // The redirect cache is one listener of the events; the relays carry its notices on.
  invalidateCacheOnEvents(events, changes)
  // The webhooks' outbox is another: its rows are written in the change's transaction.
  const outbox = new WebhookOutbox(db)
  events.withinTransaction((raised) => outbox.record(raised))
  const queuedListeners: (() => void)[] = []
  const linkKeys = stores.links.keysOf.bind(stores.links)
  const titles =
    options.titleFetch === false
      ? null
      : new TitleQueue(
          {
            save: (id, url, title) => links.keepFetchedTitle(id, url, title),
            mark: (id) => stores.links.markTitleFetch(id, now()),
            finish: (id, url) => stores.links.finishTitleFetch(id, url),
            pending: (afterId, limit) => stores.links.pendingTitleFetches(afterId, limit),
          },
          options.titleFetch,
        )
  const users = new UserService(stores.users, now)
  const sessions = new SessionService(options.sessionStore ?? new SqlSessionStore(db), now)
  const presenter = linkPresenter(stores)
  const timeZoneOf = async (userId: number) =>
    (await stores.users.findById(userId))?.timezone ?? 'UTC'
  const present = (userId: number, rows: LinkRow[]) => presenter.present(userId, rows)
  const linksOf: LinkSnapshotsOf = async (filter) => {
    const rows = await stores.links.rowsOf(filter)
    const byUser = new Map<number, LinkRow[]>()
    for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row])
    const out: LinkSnapshot[] = []
    for (const [userId, owned] of byUser) {
      const records = await present(userId, owned)
      owned.forEach((row, i) =>
        out.push({
          userId,
          key: { id: row.id, domainId: row.domain_id, alias: row.alias },
          record: records[i]!,
        }),
      )
    }
    return out.sort((a, b) => a.record.id - b.record.id)
  }
  const links: LinkService = new LinkService({
    ...stores,
    events,
    present,
    titles,
    now,
    timeZoneOf,
    ...(options.randomAlias ? { randomAlias: options.randomAlias } : {}),
  })
  // The stores stay here: callers reach the data through the services' rules.
  return {
    db,
    changes,
    events,
    titles,
    presenter,
    users,
    sessions,
    accounts: new AccountService(stores.users, sessions, now),
    domains: new DomainService(
      stores.domains,
      events,
      linksOf,
      now,
      options.publicUrl ? ownDomainOf(options.publicUrl).name : null,
    ),
    spaces: new SpaceService(stores.spaces, linksOf, events, now),
    tags: new TagService(stores.tags, linksOf, events, now),
    pixels: new PixelService(stores.pixels, linkKeys, linksOf, events, now),
    utmTemplates: new UtmTemplateService(new SqlUtmTemplateStore(db), events, now),
    links,
    qrCodes: new QrCodes(),
    overview: new AccountOverviewService(
      new SqlAccountTotalsStore(db),
      links,
      presenter,
      now,
      async (userId) =>
        (
          await stores.spaces.list(
            userId,
            { sortBy: 'name' },
            { page: 1, perPage: 100, sort: 'asc' },
          )
        ).rows,
    ),
    imports: new ImportService({
      store: new SqlImportStore(db, stores.links),
      events,
      present,
      timeZoneOf,
      now,
      metrics: options.metrics,
    }),
    webhookPolicy: options.webhookPolicy ?? PUBLIC_ONLY,
    webhooks: new WebhookService(
      new SqlWebhookStore(db),
      outbox,
      options.webhookPolicy ?? PUBLIC_ONLY,
      now,
      () => queuedListeners.forEach((listener) => listener()),
    ),
    /** Calls `listener` when deliveries may be waiting (an event committed with some, a test, a re-send). */
    onDeliveriesQueued(listener: () => void): void {
      queuedListeners.push(listener)
      events.afterCommit((event) => {
        if (outbox.hasDeliveries(event)) listener()
      })
    },
    stats: new StatsService({
      store: new SqlStatsStore(db),
      findLink: (userId, linkId) => stores.links.find(userId, linkId),
      now,
    }),
  }
}

export type Services = ReturnType<typeof createServices>

export function serviceOptionsFrom(config: Config): ServiceOptions {
  return {
    titleFetch: config.titleFetch
      ? { policy: allowListPolicy(config.titleFetchAllowedHosts) }
      : false,
    webhookPolicy: allowListPolicy(config.webhookAllowedHosts),
    publicUrl: config.publicUrl,
  }
}
