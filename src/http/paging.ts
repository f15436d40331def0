/** The list envelope: `data`, `links` (page URLs that keep every filter) and `meta`. */
import type { FastifyRequest } from 'fastify'
import type { Page, PageRequest } from '../db/paging.js'

export interface ListQueryBase {
  page?: number
  per_page?: number
  sort?: 'asc' | 'desc'
}

export function pageRequest(query: ListQueryBase): PageRequest {
  return { page: query.page ?? 1, perPage: query.per_page ?? 10, sort: query.sort ?? 'desc' }
}

export function pageEnvelope<Row, Out>(
  request: FastifyRequest,
  publicUrl: URL,
  page: Page<Row>,
  paging: PageRequest,
  toRecord: (row: Row) => Out,
) {
  const incoming = new URL(request.url, publicUrl)
  const path = `${publicUrl.origin}${incoming.pathname}`
  const lastPage = Math.max(1, Math.ceil(page.total / paging.perPage))
  const urlOf = (n: number) => {
    const params = new URLSearchParams(incoming.search)
    params.set('page', String(n))
    return `${path}?${params.toString()}`
  }
  const from = page.rows.length > 0 ? (paging.page - 1) * paging.perPage + 1 : null
  return {
    data: page.rows.map(toRecord),
    links: {
      first: urlOf(1),
      last: urlOf(lastPage),
      prev: paging.page > 1 ? urlOf(paging.page - 1) : null,
      next: paging.page < lastPage ? urlOf(paging.page + 1) : null,
    },
    meta: {
      current_page: paging.page,
      from,
      last_page: lastPage,
      path,
      per_page: paging.perPage,
      to: from === null ? null : from + page.rows.length - 1,
      total: page.total,
    },
    status: 200,
  }
}
