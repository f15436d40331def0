/** One page of a filtered query: the rows in order, with ties broken by id, and the total. */
import { sql, type Expression, type SelectQueryBuilder } from 'kysely'

export interface PageRequest {
  page: number
  perPage: number
  sort: 'asc' | 'desc'
}

export interface Page<T> {
  rows: T[]
  total: number
}

export async function fetchPage<DB, TB extends keyof DB, Row>(
  base: SelectQueryBuilder<DB, TB, object>,
  select: (qb: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
  sortKey: string | Expression<unknown>,
  idColumn: string,
  request: PageRequest,
): Promise<Page<Row>> {
  const counted = await base.select(sql<number>`count(*)`.as('total')).executeTakeFirst()
  const total = Number((counted as { total?: number } | undefined)?.total ?? 0)
  if (total === 0 || (request.page - 1) * request.perPage >= total) return { rows: [], total }
  const key = typeof sortKey === 'string' ? sql.ref(sortKey) : sortKey
  const rows = await select(base)
    .orderBy(key, request.sort)
    .orderBy(sql.ref(idColumn), request.sort)
    .limit(request.perPage)
    .offset((request.page - 1) * request.perPage)
    .execute()
  return { rows: rows as Row[], total }
}
