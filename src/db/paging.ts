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

export interface PageOptions {
  /**
   * Count at most this many (plus one): a screen that says "10,000+" need not count a million
   * rows on each page. Without it (the API) the total is exact.
   */
  countCap?: number
  /**
   * For a selective filter (a search): first read the ids of at most `max` matches, in order.
   * When they are all, they give both the total and the page, whose rows `rows` then reads by
   * id: one pass of the filter instead of two (the count's and the page's). Past it, the count
   * and the page run as without it, after a read of `max + 1` ids.
   */
  probe?: { max: number; rows(ids: number[]): Promise<unknown[]> }
  /**
   * The exact number of matches, when it is known without counting (a total kept by the
   * database): the page is read alone, and `countCap` is not needed.
   */
  total?: number
}

export async function fetchPage<DB, TB extends keyof DB, Row>(
  base: SelectQueryBuilder<DB, TB, object>,
  select: (qb: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
  sortKey: string | Expression<unknown>,
  idColumn: string,
  request: PageRequest,
  options: PageOptions = {},
): Promise<Page<Row>> {
  const { countCap, probe } = options
  const key = typeof sortKey === 'string' ? sql.ref(sortKey) : sortKey
  if (options.total !== undefined) {
    return {
      rows: await pageRows(base, select, key, idColumn, request, options.total),
      total: options.total,
    }
  }
  if (countCap === undefined && probe !== undefined) {
    const few = await fewMatches<DB, TB, Row>(base, key, idColumn, request, probe)
    if (few !== null) return few
  }
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
  const rows = await pageRows(base, select, key, idColumn, request, capped ? Infinity : total)
  return { rows, total, ...(capped ? { capped } : {}) }
}

/** The rows of the page, none when it starts at or past `total`. */
async function pageRows<DB, TB extends keyof DB, Row>(
  base: SelectQueryBuilder<DB, TB, object>,
  select: (qb: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
  key: Expression<unknown>,
  idColumn: string,
  request: PageRequest,
  total: number,
): Promise<Row[]> {
  const offset = (request.page - 1) * request.perPage
  if (total === 0 || offset >= total) return []
  const rows = await select(base)
    .orderBy(key, request.sort)
    .orderBy(sql.ref(idColumn), request.sort)
    .limit(request.perPage)
    .offset(offset)
    .execute()
  return rows as Row[]
}

/** The page and total from the ordered ids of every match, or null when more than `max` match. */
async function fewMatches<DB, TB extends keyof DB, Row>(
  base: SelectQueryBuilder<DB, TB, object>,
  key: Expression<unknown>,
  idColumn: string,
  request: PageRequest,
  probe: NonNullable<PageOptions['probe']>,
): Promise<Page<Row> | null> {
  const id = sql.ref(idColumn)
  const matches = (await base
    .select(sql<number>`${id}`.as('match_id'))
    .orderBy(key, request.sort)
    .orderBy(id, request.sort)
    .limit(probe.max + 1)
    .execute()) as { match_id: number }[]
  if (matches.length > probe.max) return null
  const start = (request.page - 1) * request.perPage
  const ids = matches.slice(start, start + request.perPage).map((m) => Number(m.match_id))
  if (ids.length === 0) return { rows: [], total: matches.length }
  // By id alone: the filter is not evaluated again (SQLite planned it first, at the cost of the
  // whole search). A row deleted since the ids were read is left out.
  const rows = (await probe.rows(ids)) as Record<string, unknown>[]
  const byId = new Map(rows.map((row) => [Number(row[idColumn]), row]))
  return { rows: ids.flatMap((one) => (byId.get(one) ?? []) as Row[]), total: matches.length }
}
