/**
 * Wires the stores and services together over one database. The HTTP app, the CLI and the
 * tests all build the same graph from here.
 */
import type { Config } from './config.js'
import type { Db } from './db/connect.js'
import { DomainService } from './domains/service.js'
import { ImportService } from './imports/service.js'
import { SqlImportStore } from './imports/store.js'
import { SqlDomainStore } from './domains/store.js'
import type { LinkPresenterDeps } from './links/record.js'
import { LinkService } from './links/service.js'
import { SqlLinkStore } from './links/store.js'
import { TitleQueue } from './links/title-queue.js'
import type { TitleFetchOptions } from './links/title-fetch.js'
import { PixelService } from './pixels/service.js'
import { SqlPixelStore } from './pixels/store.js'
import { Changes } from './shared/changes.js'
import { SpaceService } from './spaces/service.js'
import { SqlSpaceStore } from './spaces/store.js'
import { AccountOverviewService, SqlAccountTotalsStore } from './stats/account-overview.js'
import { StatsService } from './stats/service.js'
import { SqlStatsStore } from './stats/sql-store.js'
import { SessionService } from './sessions/service.js'
import { SqlSessionStore } from './sessions/sql-store.js'
import type { SessionStore } from './sessions/store.js'
import { AccountService } from './users/accounts.js'
import { UserService } from './users/service.js'
import { SqlUserStore } from './users/store.js'

export interface ServiceOptions {
  /** Title fetching: off, or on with these options (tests allow loopback destinations). */
  titleFetch: false | TitleFetchOptions
  now?: () => number
  /** Where dashboard sessions live (default: the database). */
  sessionStore?: SessionStore
}

export function createServices(db: Db, options: ServiceOptions) {
  const stores = {
    users: new SqlUserStore(db),
    domains: new SqlDomainStore(db),
    spaces: new SqlSpaceStore(db),
    pixels: new SqlPixelStore(db),
    links: new SqlLinkStore(db),
  }
  const now = options.now ?? Date.now
  const changes = new Changes()
  const linkKeys = stores.links.keysOf.bind(stores.links)
  const titles =
    options.titleFetch === false ? null : new TitleQueue(stores.links, options.titleFetch)
  const users = new UserService(stores.users, now)
  const sessions = new SessionService(options.sessionStore ?? new SqlSessionStore(db), now)
  const presenter: LinkPresenterDeps = stores
  const timeZoneOf = async (userId: number) =>
    (await stores.users.findById(userId))?.timezone ?? 'UTC'
  const links = new LinkService({ ...stores, changes, titles, now, timeZoneOf })
  return {
    db,
    stores,
    changes,
    titles,
    presenter,
    users,
    sessions,
    accounts: new AccountService(stores.users, sessions, now),
    domains: new DomainService(stores.domains, changes, now),
    spaces: new SpaceService(stores.spaces, linkKeys, changes, now),
    pixels: new PixelService(stores.pixels, linkKeys, changes, now),
    links,
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
    imports: new ImportService({ store: new SqlImportStore(db), changes, timeZoneOf, now }),
    stats: new StatsService({
      store: new SqlStatsStore(db),
      findLink: (userId, linkId) => stores.links.find(userId, linkId),
      now,
    }),
  }
}

export type Services = ReturnType<typeof createServices>

export function serviceOptionsFrom(config: Config): ServiceOptions {
  return { titleFetch: config.titleFetch ? {} : false }
}
