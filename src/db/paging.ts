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
   * For a selective filter (a search) counted exactly: one pass of the filter reads the ids of
   * every match in order, as one JSON array (the database's own aggregate, `dialect`'s), which
   * gives both the total and the page, whose rows `rows` then reads by id. Without it the count
   * and the page are two passes of the filter.
   */
  byIds?: { dialect: 'sqlite' | 'postgres'; rows(ids: number[]): Promise<unknown[]> }
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
  const { countCap, byIds } = options
  const key = typeof sortKey === 'string' ? sql.ref(sortKey) : sortKey
  if (options.total !== undefined) {
    return {
      rows: await pageRows(base, select, key, idColumn, request, options.total),
      total: options.total,
    }
  }
  if (countCap === undefined && byIds !== undefined) {
    return everyMatch<DB, TB, Row>(base, key, idColumn, request, byIds)
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

/** The page and total from the ordered ids of every match. */
async function everyMatch<DB, TB extends keyof DB, Row>(
  base: SelectQueryBuilder<DB, TB, object>,
  key: Expression<unknown>,
  idColumn: string,
  request: PageRequest,
  byIds: NonNullable<PageOptions['byIds']>,
): Promise<Page<Row>> {
  const id = sql.ref(idColumn)
  const direction = sql.raw(request.sort)
  const aggregate = sql.raw(byIds.dialect === 'sqlite' ? 'json_group_array' : 'json_agg')
  const read = await base
    .select(
      sql<
        string | number[] | null
      >`${aggregate}(${id} order by ${key} ${direction}, ${id} ${direction})`.as('match_ids'),
    )
    .executeTakeFirst()
  // SQLite's JSON is text, PostgreSQL's is parsed by the driver; no match is null there.
  const value = (read as { match_ids?: string | number[] | null } | undefined)?.match_ids ?? []
  const matches = (typeof value === 'string' ? JSON.parse(value) : value) as number[]
  const start = (request.page - 1) * request.perPage
  const ids = matches.slice(start, start + request.perPage).map(Number)
  if (ids.length === 0) return { rows: [], total: matches.length }
  // By id alone: the filter is not evaluated again. A row deleted since the ids were read is
  // left out.
  const rows = (await byIds.rows(ids)) as Record<string, unknown>[]
  const byId = new Map(rows.map((row) => [Number(row[idColumn]), row]))
  return { rows: ids.flatMap((one) => (byId.get(one) ?? []) as Row[]), total: matches.length }
}
