/** Spaces: a user's folders for links. */
import type { Db } from '../db/connect.js'
import { NamedRowStore, type NamedRows } from '../db/named-rows.js'
import type { Page, PageRequest } from '../db/paging.js'
import type { SpaceRow } from '../db/types.js'

export interface SpaceFields {
  name: string
  color: number
}

export interface SpaceFilter {
  search?: string
  sortBy: 'id' | 'name'
}

export type SpaceStore = NamedRows<SpaceRow, SpaceFields, SpaceFilter>

export class SqlSpaceStore extends NamedRowStore<'spaces', SpaceFields> implements SpaceStore {
  constructor(db: Db) {
    super(db, 'spaces')
  }

  list(userId: number, filter: SpaceFilter, page: PageRequest): Promise<Page<SpaceRow>> {
    return this.page(userId, filter.search, filter.sortBy, page)
  }
}
