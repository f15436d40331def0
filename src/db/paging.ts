/** One page of a filtered query: the rows in order, with ties broken by id, and the total. */
import { sql, type Expression, type SelectQueryBuilder } from 'kysely'

export interface PageRequest {
  page: number
  perPage: number
  sort: 'asc' | 'desc'
}

export interface Page<T> {
  rows: T[]
  /** Every matching row, or `countCap + 1` when `capped`. */
  total: number
  /** More rows match than the count was asked to go to (`countCap`). */
  capped?: boolean
}

export async function fetchPage<DB, TB extends keyof DB, Row>(
  base: SelectQueryBuilder<DB, TB, object>,
  select: (qb: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
  sortKey: string | Expression<unknown>,
  idColumn: string,
  request: PageRequest,
  /**
   * Count at most this many (plus one): a screen that says "10,000+" need not count a million
   * rows on each page. Without it (the API) the total is exact.
   */
  countCap?: number,
): Promise<Page<Row>> {
  let total: number
  let capped = false
  if (countCap === undefined) {
    const counted = await base.select(sql<number>`count(*)`.as('total')).executeTakeFirst()
    total = Number((counted as { total?: number } | undefined)?.total ?? 0)
  } else {
    total = (
      await base
        .select(sql<number>`1`.as('one'))
        .limit(countCap + 1)
        .execute()
    ).length
    capped = total > countCap
  }
  if (total === 0 || (!capped && (request.page - 1) * request.perPage >= total)) {
    return { rows: [], total, ...(capped ? { capped } : {}) }
  }
  const key = typeof sortKey === 'string' ? sql.ref(sortKey) : sortKey
  const rows = await select(base)
    .orderBy(key, request.sort)
    .orderBy(sql.ref(idColumn), request.sort)
    .limit(request.perPage)
    .offset((request.page - 1) * request.perPage)
    .execute()
  return { rows: rows as Row[], total, ...(capped ? { capped } : {}) }
}
