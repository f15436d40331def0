/** UTM templates: a user's named sets of utm_* values. */
import type { Db } from '../db/connect.js'
import { NamedRowStore, type NamedRows } from '../db/named-rows.js'
import type { Page, PageRequest } from '../db/paging.js'
import type { UtmTemplateRow } from '../db/types.js'
import type { UtmValues } from './schema.js'

export type UtmTemplateFields = { name: string } & UtmValues

export interface UtmTemplateFilter {
  search?: string
  sortBy: 'id' | 'name'
}

export type UtmTemplateStore = NamedRows<UtmTemplateRow, UtmTemplateFields, UtmTemplateFilter>

export class SqlUtmTemplateStore
  extends NamedRowStore<'utm_templates', UtmTemplateFields>
  implements UtmTemplateStore
{
  constructor(db: Db) {
    super(db, 'utm_templates')
  }

  list(
    userId: number,
    filter: UtmTemplateFilter,
    page: PageRequest,
  ): Promise<Page<UtmTemplateRow>> {
    return this.page(userId, filter.search, filter.sortBy, page)
  }
}
