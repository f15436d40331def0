/**
 * The statistics store on SQLite and PostgreSQL, through the query builder. Each span is its
 * own range of the primary key (link, dimension, day); the ranges are joined with UNION ALL
 * (an OR of them made SQLite walk every row of the link), summed per value or day, ordered and
 * cut to the page, with the number of groups from a window (no second pass). Text ordering is
 * byte order on both engines.
 */
import { sql } from 'kysely'
import type { Db } from '../db/connect.js'
import type { Page } from '../db/paging.js'
import type { StatQuery, StatRow, StatsStore } from './store.js'

export class SqlStatsStore implements StatsStore {
  constructor(private readonly db: Db) {}

  async sums(query: StatQuery): Promise<Page<StatRow>> {
    const column = query.key === 'day' ? 'day' : 'value'
    const ranges = query.spans.map((span) =>
      this.db.kysely
        .selectFrom('click_stats')
        .select([sql.ref<string>(column).as('k'), 'clicks'])
        .where((eb) =>
          query.tagId === undefined
            ? eb('link_id', '=', query.linkId)
            : eb(
                'link_id',
                'in',
                eb
                  .selectFrom('link_tags')
                  .select('link_tags.link_id')
                  .where('tag_id', '=', query.tagId),
              ),
        )
        .where('dimension', '=', span.dimension)
        .where('day', '>=', span.from)
        .where('day', '<=', span.to),
    )
    const [first, ...more] = ranges
    if (first === undefined) return { rows: [], total: 0 }
    const rows = more.reduce((union, range) => union.unionAll(range), first).as('r')
    const key = this.db.dialect === 'postgres' ? sql`r.k collate "C"` : sql`r.k`
    const groups = this.db.kysely.selectFrom(rows).groupBy('r.k')
    const found = await groups
      .select([
        'r.k as value',
        sql<number>`cast(sum(r.clicks) as bigint)`.as('count'),
        sql<number>`count(*) over ()`.as('total'),
      ])
      .orderBy(query.order.by === 'count' ? sql`sum(r.clicks)` : key, query.order.direction)
      .orderBy(key, 'asc')
      .limit(query.limit)
      .offset(query.offset)
      .execute()
    const head = found[0]
    if (head !== undefined || query.offset === 0) {
      return {
        rows: found.map((r) => ({ value: r.value, count: Number(r.count) })),
        total: Number(head?.total ?? 0),
      }
    }
    // A page past the last: count the groups on their own.
    const counted = await this.db.kysely
      .selectFrom(groups.select('r.k').as('g'))
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirst()
    return { rows: [], total: Number(counted?.n ?? 0) }
  }
}
