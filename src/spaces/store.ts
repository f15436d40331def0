/** Spaces: a user's folders for links. */
import type { Db } from '../db/connect.js'
import { fetchPage, type Page, type PageRequest } from '../db/paging.js'
import { containsInsensitive, textSortKey } from '../db/sql-helpers.js'
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

export class SqlSpaceStore implements SpaceStore {
  constructor(private readonly db: Db) {}

  list(userId: number, filter: SpaceFilter, page: PageRequest): Promise<Page<SpaceRow>> {
    let base = this.db.kysely.selectFrom('spaces').where('user_id', '=', userId)
    if (filter.search) base = base.where(containsInsensitive('name', filter.search))
    const sortKey = filter.sortBy === 'name' ? textSortKey('name', this.db.dialect) : 'id'
    return fetchPage(base, (qb) => qb.selectAll(), sortKey, 'id', page)
  }

  find(userId: number, id: number): Promise<SpaceRow | undefined> {
    return this.db.kysely
      .selectFrom('spaces')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst()
  }

  findByName(userId: number, name: string): Promise<SpaceRow | undefined> {
    return this.db.kysely
      .selectFrom('spaces')
      .selectAll()
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .executeTakeFirst()
  }

  async findMany(userId: number, ids: number[]): Promise<SpaceRow[]> {
    if (ids.length === 0) return []
    return this.db.kysely
      .selectFrom('spaces')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .execute()
  }

  create(userId: number, fields: SpaceFields, now: number): Promise<SpaceRow> {
    return this.db.kysely
      .insertInto('spaces')
      .values({ user_id: userId, ...fields, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  update(id: number, fields: Partial<SpaceFields>, now: number): Promise<SpaceRow> {
    return this.db.kysely
      .updateTable('spaces')
      .set({ ...fields, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  async delete(id: number): Promise<void> {
    await this.db.kysely.deleteFrom('spaces').where('id', '=', id).execute()
  }
}
