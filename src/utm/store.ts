/** UTM templates: a user's named sets of utm_* values. */
import type { Db } from '../db/connect.js'
import { NamedRowStore } from '../db/named-rows.js'
import type { Page, PageRequest } from '../db/paging.js'
import type { UtmTemplateRow } from '../db/types.js'
import type { UtmValues } from './schema.js'

export type UtmTemplateFields = { name: string } & UtmValues

export interface UtmTemplateFilter {
  search?: string
  sortBy: 'id' | 'name'
}

export interface UtmTemplateStore {
  list(userId: number, filter: UtmTemplateFilter, page: PageRequest): Promise<Page<UtmTemplateRow>>
  find(userId: number, id: number): Promise<UtmTemplateRow | undefined>
  findByName(userId: number, name: string): Promise<UtmTemplateRow | undefined>
  create(userId: number, fields: UtmTemplateFields, now: number): Promise<UtmTemplateRow>
  update(id: number, fields: Partial<UtmTemplateFields>, now: number): Promise<UtmTemplateRow>
  delete(id: number): Promise<void>
}

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
