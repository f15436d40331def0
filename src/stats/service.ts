/**
 * The rules of the statistics API: only the link's owner reads them (anyone else gets the same
 * 404 as for a missing link), the period is resolved and checked once, a name reads its own
 * rows, and unknown values leave the service as `null`. Rows of regions and cities carry their
 * country.
 */
import type { Page, PageRequest } from '../db/paging.js'
import { NotFoundError, type FieldErrors } from '../shared/errors.js'
import { statsOverview, type StatsOverview } from './overview.js'
import { dayOfInstant, resolvePeriod, type Period, type PeriodInput } from './period.js'
import { splitPlace } from '../clicks/aggregate.js'
import { PLACE_NAMES, STAT_SOURCES, type StatName, type StatRecord } from './schema.js'
import { spansOf } from './spans.js'
import type { StatOrder, StatsStore, StatSubject } from './store.js'

export interface StatsDeps {
  store: StatsStore
  /** The user's own link (another user's link is not found, like a missing one). */
  findLink(userId: number, linkId: number): Promise<{ id: number } | undefined>
  now: () => number
}

export class StatsService {
  constructor(private readonly deps: StatsDeps) {}

  /** Everything the stats page shows of one link over a period. */
  overview(linkId: number, period: Period): Promise<StatsOverview> {
    return statsOverview(this.deps.store, { linkId }, period)
  }

  /** The same of the links carrying a tag, together. */
  overviewOfTag(tagId: number, period: Period): Promise<StatsOverview> {
    return statsOverview(this.deps.store, { linkId: 0, tagId }, period)
  }

  now(): number {
    return this.deps.now()
  }

  /** Today's UTC day. */
  today(): string {
    return dayOfInstant(this.deps.now())
  }

  /** The period asked for with its defaults, or `null` with the reasons in `errors`. */
  period(input: PeriodInput, errors: FieldErrors): Period | null {
    return resolvePeriod(input, this.today(), errors)
  }

  /** Throws the contract's 404 unless the link is the user's own. */
  async checkOwner(userId: number, linkId: number): Promise<void> {
    if (!(await this.deps.findLink(userId, linkId))) throw new NotFoundError()
  }

  /**
   * Every row of a statistic in the period (for a download): days and hours in order, other
   * values most clicked first (ties by value), read a thousand at a time.
   */
  all(linkId: number, name: StatName, period: Period): Promise<StatRecord[]> {
    return this.allOf({ linkId }, name, period)
  }

  /** The same of the links carrying a tag, together. */
  allOfTag(tagId: number, name: StatName, period: Period): Promise<StatRecord[]> {
    return this.allOf({ linkId: 0, tagId }, name, period)
  }

  private async allOf(subject: StatSubject, name: StatName, period: Period): Promise<StatRecord[]> {
    const byValue = name === 'clicks' || name === 'clicks_hour' || name === 'imported'
    const order: StatOrder = byValue
      ? { by: 'value', direction: 'asc' }
      : { by: 'count', direction: 'desc' }
    const rows: StatRecord[] = []
    for (let page = 1; ; page++) {
      const found = await this.sums(subject, name, period, order, {
        page,
        perPage: 1000,
        sort: order.direction,
      })
      rows.push(...found.rows)
      if (found.rows.length === 0 || rows.length >= found.total) return rows
    }
  }

  /** One page of a statistic: `{value,count}` rows in the order asked for. */
  list(
    linkId: number,
    name: StatName,
    period: Period,
    order: StatOrder,
    page: PageRequest,
  ): Promise<Page<StatRecord>> {
    return this.sums({ linkId }, name, period, order, page)
  }

  /** The same of the links carrying a tag, together. */
  listOfTag(
    tagId: number,
    name: StatName,
    period: Period,
    order: StatOrder,
    page: PageRequest,
  ): Promise<Page<StatRecord>> {
    return this.sums({ linkId: 0, tagId }, name, period, order, page)
  }

  private async sums(
    subject: StatSubject,
    name: StatName,
    period: Period,
    order: StatOrder,
    page: PageRequest,
  ): Promise<Page<StatRecord>> {
    const source = STAT_SOURCES[name]
    const result = await this.deps.store.sums({
      ...subject,
      spans: spansOf(period, source.dimension, source.monthly),
      key: source.key,
      order,
      limit: page.perPage,
      offset: (page.page - 1) * page.perPage,
    })
    if (PLACE_NAMES.has(name)) {
      return {
        rows: result.rows.map((r) => {
          if (r.value === '') return { value: null, country: null, count: r.count }
          const place = splitPlace(r.value)
          return { value: place.name, country: place.country, count: r.count }
        }),
        total: result.total,
      }
    }
    return {
      rows: result.rows.map((r) => ({ value: r.value === '' ? null : r.value, count: r.count })),
      total: result.total,
    }
  }
}
