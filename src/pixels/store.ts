/** Pixels: a user's tracking identifiers. */
import type { Db } from '../db/connect.js'
import { fetchPage, type Page, type PageRequest } from '../db/paging.js'
import { containsInsensitive, textSortKey } from '../db/sql-helpers.js'
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

export interface PixelStore {
  list(userId: number, filter: PixelFilter, page: PageRequest): Promise<Page<PixelRow>>
  find(userId: number, id: number): Promise<PixelRow | undefined>
  findByName(userId: number, name: string): Promise<PixelRow | undefined>
  findMany(userId: number, ids: number[]): Promise<PixelRow[]>
  create(userId: number, fields: PixelFields, now: number): Promise<PixelRow>
  update(id: number, fields: Partial<PixelFields>, now: number): Promise<PixelRow>
  delete(id: number): Promise<void>
}

export class SqlPixelStore implements PixelStore {
  constructor(private readonly db: Db) {}

  list(userId: number, filter: PixelFilter, page: PageRequest): Promise<Page<PixelRow>> {
    let base = this.db.kysely.selectFrom('pixels').where('user_id', '=', userId)
    if (filter.search) base = base.where(containsInsensitive('name', filter.search))
    if (filter.type) base = base.where('type', '=', filter.type)
    const sortKey = filter.sortBy === 'name' ? textSortKey('name', this.db.dialect) : 'id'
    return fetchPage(base, (qb) => qb.selectAll(), sortKey, 'id', page)
  }

  find(userId: number, id: number): Promise<PixelRow | undefined> {
    return this.db.kysely
      .selectFrom('pixels')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst()
  }

  findByName(userId: number, name: string): Promise<PixelRow | undefined> {
    return this.db.kysely
      .selectFrom('pixels')
      .selectAll()
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .executeTakeFirst()
  }

  async findMany(userId: number, ids: number[]): Promise<PixelRow[]> {
    if (ids.length === 0) return []
    return this.db.kysely
      .selectFrom('pixels')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute()
  }

  create(userId: number, fields: PixelFields, now: number): Promise<PixelRow> {
    return this.db.kysely
      .insertInto('pixels')
      .values({ user_id: userId, ...fields, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  update(id: number, fields: Partial<PixelFields>, now: number): Promise<PixelRow> {
    return this.db.kysely
      .updateTable('pixels')
      .set({ ...fields, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  async delete(id: number): Promise<void> {
    await this.db.kysely.deleteFrom('pixels').where('id', '=', id).execute()
  }
}
