/** Spaces: a user's folders for links. */
import type { Db } from '../db/connect.js'
import { NamedRowStore } from '../db/named-rows.js'
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

export interface SpaceStore {
  list(userId: number, filter: SpaceFilter, page: PageRequest): Promise<Page<SpaceRow>>
  find(userId: number, id: number): Promise<SpaceRow | undefined>
  findByName(userId: number, name: string): Promise<SpaceRow | undefined>
  findMany(userId: number, ids: number[]): Promise<SpaceRow[]>
  create(userId: number, fields: SpaceFields, now: number): Promise<SpaceRow>
  update(id: number, fields: Partial<SpaceFields>, now: number): Promise<SpaceRow>
  delete(id: number): Promise<void>
}

export class SqlSpaceStore extends NamedRowStore<'spaces', SpaceFields> implements SpaceStore {
  constructor(db: Db) {
    super(db, 'spaces')
  }

  list(userId: number, filter: SpaceFilter, page: PageRequest): Promise<Page<SpaceRow>> {
    return this.page(userId, filter.search, filter.sortBy, page)
  }
}
