/**
 * What the dashboard's Overview shows of one account: how many links, clicks, pixels and spaces
 * it has, its clicks per day over the last 30 days (summed from the daily aggregates of its
 * links, never from the click log), its most clicked links and its latest ones.
 */
import { sql } from 'kysely'
import type { Db } from '../db/connect.js'
import type { LinkPresenter } from '../links/record.js'
import type { LinkRecord } from '../links/schema.js'
import type { LinkService } from '../links/service.js'
import type { LinkFilter } from '../links/store.js'
import type { PageRequest } from '../db/paging.js'
import { dayOfInstant, eachDay, lastDays, type Period } from './period.js'

export interface AccountTotals {
  links: number
  clicks: number
  pixels: number
  spaces: number
}

export interface AccountOverview {
  totals: AccountTotals
  period: Period
  days: { day: string; clicks: number }[]
  topLinks: LinkRecord[]
  latestLinks: LinkRecord[]
}

export interface AccountTotalsStore {
  totals(userId: number): Promise<AccountTotals>
  /** Clicks per day of every link of the user in the period (days without clicks left out). */
  clicksPerDay(userId: number, period: Period): Promise<Map<string, number>>
}

export class SqlAccountTotalsStore implements AccountTotalsStore {
  constructor(private readonly db: Db) {}

  async totals(userId: number): Promise<AccountTotals> {
    const k = this.db.kysely
    const links = await k
      .selectFrom('links')
      .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(clicks), 0)`.as('clicks')])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    const count = async (table: 'pixels' | 'spaces') =>
      Number(
        (
          await k
            .selectFrom(table)
            .select(sql<number>`count(*)`.as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow()
        ).n,
      )
    return {
      links: Number(links.n),
      clicks: Number(links.clicks),
      pixels: await count('pixels'),
      spaces: await count('spaces'),
    }
  }

  async clicksPerDay(userId: number, period: Period): Promise<Map<string, number>> {
    const rows = await this.db.kysely
      .selectFrom('click_stats')
      .innerJoin('links', 'links.id', 'click_stats.link_id')
      .select(['click_stats.day as day', sql<number>`sum(click_stats.clicks)`.as('clicks')])
      .where('links.user_id', '=', userId)
      .where('click_stats.dimension', '=', 'total')
      .where('click_stats.day', '>=', period.from)
      .where('click_stats.day', '<=', period.to)
      .groupBy('click_stats.day')
      .execute()
    return new Map(rows.map((r) => [r.day, Number(r.clicks)]))
  }
}

export const OVERVIEW_DAYS = 30
const LIST_LENGTH = 5
/**
 * The links list of the dashboard, filtered, counts up to here and then says "more than 10,000";
 * unfiltered, it says how many links the user has (kept by the database, links/store.ts).
 */
export const DASHBOARD_COUNT_CAP = 10_000

export class AccountOverviewService {
  constructor(
    private readonly store: AccountTotalsStore,
    private readonly links: LinkService,
    private readonly presenter: LinkPresenter,
    private readonly now: () => number,
    private readonly spaceList: (userId: number) => Promise<{ id: number; name: string }[]>,
  ) {}

  /** One page of the user's links as records (the dashboard's links list). */
  async linkPage(
    userId: number,
    filter: LinkFilter,
    page: PageRequest,
  ): Promise<{ records: LinkRecord[]; total: number; capped: boolean }> {
    const found = await this.links.list(userId, filter, page, DASHBOARD_COUNT_CAP)
    return {
      records: await this.presenter.present(userId, found.rows),
      total: found.total,
      capped: found.capped === true,
    }
  }

  /** The user's spaces by name (for filters), at most 100. */
  async spaces(userId: number): Promise<{ id: number; name: string }[]> {
    return (await this.spaceList(userId)).map((s) => ({ id: s.id, name: s.name }))
  }

  async overview(userId: number): Promise<AccountOverview> {
    const period = lastDays(OVERVIEW_DAYS, dayOfInstant(this.now()))
    const [totals, perDay, top, latest] = await Promise.all([
      this.store.totals(userId),
      this.store.clicksPerDay(userId, period),
      // Five rows each: no count of every link (the totals have it, once).
      this.links.first(userId, { searchBy: 'title', sortBy: 'clicks' }, LIST_LENGTH, 'desc'),
      this.links.first(userId, { searchBy: 'title', sortBy: 'id' }, LIST_LENGTH, 'desc'),
    ])
    return {
      totals,
      period,
      days: eachDay(period).map((day) => ({ day, clicks: perDay.get(day) ?? 0 })),
      topLinks: await this.presenter.present(
        userId,
        top.filter((row) => row.clicks > 0),
      ),
      latestLinks: await this.presenter.present(userId, latest),
    }
  }
}
