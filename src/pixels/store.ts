/** Pixels: a user's tracking identifiers. */
import { sql, type SqlBool } from 'kysely'
import type { Db } from '../db/connect.js'
import { NamedRowStore, type NamedRows } from '../db/named-rows.js'
import type { Page, PageRequest } from '../db/paging.js'
import type { PixelRow } from '../db/types.js'
import type { PixelType } from './types.js'

export interface PixelFields {
  name: string
  type: PixelType
  value: string
}

export interface PixelFilter {
  search?: string
  type?: PixelType
  sortBy: 'id' | 'name'
}

export type PixelStore = NamedRows<PixelRow, PixelFields, PixelFilter>

export class SqlPixelStore extends NamedRowStore<'pixels', PixelFields> implements PixelStore {
  constructor(db: Db) {
    super(db, 'pixels')
  }

  list(userId: number, filter: PixelFilter, page: PageRequest): Promise<Page<PixelRow>> {
    const type = filter.type
    const where = type ? sql<SqlBool>`${sql.ref('type')} = ${type}` : undefined
    return this.page(userId, filter.search, filter.sortBy, page, where)
  }
}
