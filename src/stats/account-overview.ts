/**
 * What the dashboard's Overview shows of one account: how many links, clicks, pixels and spaces
 * it has, its clicks per day over the last 30 days (summed from the daily aggregates of its
 * links, never from the click log), its most clicked links and its latest ones. Filtered by one
 * of its tags, all of it is of the links carrying that tag (the pixels and spaces those links
 * use), each read from the tag's rows of `link_tags` (its index by tag), not the account's links.
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
  /**
   * The user's links, their clicks, pixels and spaces; with `tagId` (one of the user's tags),
   * the links carrying it, their clicks, and the pixels and spaces those links use.
   */
  totals(userId: number, tagId?: number): Promise<AccountTotals>
  /**
   * Clicks per day of every link of the user (with `tagId`, of those carrying it) in the period
   * (days without clicks left out).
   */
  clicksPerDay(userId: number, period: Period, tagId?: number): Promise<Map<string, number>>
}

export class SqlAccountTotalsStore implements AccountTotalsStore {
  constructor(private readonly db: Db) {}

  /** The ids of the links carrying the tag, from the index of `link_tags` by tag. */
  private tagged(tagId: number) {
    return this.db.kysely
      .selectFrom('link_tags')
      .select('link_tags.link_id')
      .where('link_tags.tag_id', '=', tagId)
  }

  async totals(userId: number, tagId?: number): Promise<AccountTotals> {
    const k = this.db.kysely
    let links = k
      .selectFrom('links')
      .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(clicks), 0)`.as('clicks')])
      .where('user_id', '=', userId)
    if (tagId !== undefined) links = links.where('id', 'in', this.tagged(tagId))
    const counted = await links.executeTakeFirstOrThrow()
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
    const used = async () => {
      const tagged = this.tagged(tagId!)
      const [pixels, spaces] = await Promise.all([
        k
          .selectFrom('link_pixels')
          .select(sql<number>`count(distinct pixel_id)`.as('n'))
          .where('link_id', 'in', tagged)
          .executeTakeFirstOrThrow(),
        k
          .selectFrom('links')
          .select(sql<number>`count(distinct space_id)`.as('n'))
          .where('user_id', '=', userId)
          .where('id', 'in', tagged)
          .executeTakeFirstOrThrow(),
      ])
      return { pixels: Number(pixels.n), spaces: Number(spaces.n) }
    }
    return {
      links: Number(counted.n),
      clicks: Number(counted.clicks),
      ...(tagId === undefined
        ? { pixels: await count('pixels'), spaces: await count('spaces') }
        : await used()),
    }
  }

  async clicksPerDay(userId: number, period: Period, tagId?: number): Promise<Map<string, number>> {
    let query = this.db.kysely
      .selectFrom('click_stats')
      .innerJoin('links', 'links.id', 'click_stats.link_id')
      .select(['click_stats.day as day', sql<number>`sum(click_stats.clicks)`.as('clicks')])
      .where('links.user_id', '=', userId)
      .where('click_stats.dimension', '=', 'total')
      .where('click_stats.day', '>=', period.from)
      .where('click_stats.day', '<=', period.to)
    if (tagId !== undefined) query = query.where('click_stats.link_id', 'in', this.tagged(tagId))
    const rows = await query.groupBy('click_stats.day').execute()
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

  /** The account's overview, or (`tag`, one of the user's tags) that of the links carrying it. */
  async overview(userId: number, tag?: { id: number; name: string }): Promise<AccountOverview> {
    const period = lastDays(OVERVIEW_DAYS, dayOfInstant(this.now()))
    const tagged = tag ? { tags: [tag.name] } : {}
    const [totals, perDay, top, latest] = await Promise.all([
      this.store.totals(userId, tag?.id),
      this.store.clicksPerDay(userId, period, tag?.id),
      // Five rows each: no count of every link (the totals have it, once).
      this.links.first(
        userId,
        { searchBy: 'title', sortBy: 'clicks', ...tagged },
        LIST_LENGTH,
        'desc',
      ),
      this.links.first(userId, { searchBy: 'title', sortBy: 'id', ...tagged }, LIST_LENGTH, 'desc'),
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
