/**
 * What the stores of spaces, pixels and UTM templates share: rows that belong to one user and
 * carry a name unique among that user's rows. Each store names its table and adds its own list
 * filters.
 */
import type { Expression, Generated, Selectable, Simplify, SqlBool } from 'kysely'
import type { Db } from './connect.js'
import { fetchPage, type Page, type PageRequest } from './paging.js'
import { containsInsensitive, textSortKey } from './sql-helpers.js'
import type { Database } from './types.js'

/** What a service of named rows reads of its store (resources/named-row-service.ts). */
export interface NamedRowReads<Row, Filter> {
  list(userId: number, filter: Filter, page: PageRequest): Promise<Page<Row>>
  find(userId: number, id: number): Promise<Row | undefined>
  findByName(userId: number, name: string): Promise<Row | undefined>
}

/** A store of named rows: the rows, their fields to write and the filters of a list. */
export interface NamedRows<Row, Fields, Filter> extends NamedRowReads<Row, Filter> {
  findMany(userId: number, ids: number[]): Promise<Row[]>
  create(userId: number, fields: Fields, now: number): Promise<Row>
  update(id: number, fields: Partial<Fields>, now: number): Promise<Row>
  delete(id: number): Promise<void>
}

/** The columns every table of named rows has: all that this module reads or compares. */
export interface NamedRowColumns {
  id: Generated<number>
  user_id: number
  name: string
  created_at: number
  updated_at: number
}

/** The tables that have every one of those columns. */
export type NamedRowTable = {
  [T in keyof Database]: Database[T] extends NamedRowColumns ? T : never
}[keyof Database]

/** A row of table T, as the reads here return it (Kysely's own flattening of the row type). */
export type NamedRow<T extends NamedRowTable> = Simplify<Selectable<Database[T]>>

/** Columns a store sets on create and update: the name, and its table's own columns. */
type Fields = { name: string }

export abstract class NamedRowStore<T extends NamedRowTable, F extends Fields> {
  /** The table's name, as the query builder's view below takes it. */
  private readonly table: string

  constructor(
    protected readonly db: Db,
    table: T,
  ) {
    this.table = table
  }

  /**
   * The query builder, with this store's table seen through the columns every named-row table
   * has (Kysely's `withTables`): queries here are checked against them, and each read says that
   * its rows are the table's (`$castTo`). Taken at each query, as it follows the transaction
   * open around it.
   */
  private get named() {
    return this.db.kysely.withTables<Record<string, NamedRowColumns>>()
  }

  /** `where`: the store's own filter, on columns of its table only. */
  protected page(
    userId: number,
    search: string | undefined,
    sortBy: 'id' | 'name',
    page: PageRequest,
    where?: Expression<SqlBool>,
  ): Promise<Page<NamedRow<T>>> {
    let base = this.named.selectFrom(this.table).where('user_id', '=', userId)
    if (where) base = base.where(where)
    if (search) base = base.where(containsInsensitive('name', search, this.db.dialect))
    const sortKey = sortBy === 'name' ? textSortKey('name', this.db.dialect) : 'id'
    return fetchPage(base, (qb) => qb.selectAll().$castTo<NamedRow<T>>(), sortKey, 'id', page)
  }

  find(userId: number, id: number): Promise<NamedRow<T> | undefined> {
    return this.named
      .selectFrom(this.table)
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .$castTo<Selectable<Database[T]>>()
      .executeTakeFirst()
  }

  findByName(userId: number, name: string): Promise<NamedRow<T> | undefined> {
    return this.named
      .selectFrom(this.table)
      .selectAll()
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .$castTo<Selectable<Database[T]>>()
      .executeTakeFirst()
  }

  async findMany(userId: number, ids: number[]): Promise<NamedRow<T>[]> {
    if (ids.length === 0) return []
    return this.named
      .selectFrom(this.table)
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .orderBy('id')
      .$castTo<Selectable<Database[T]>>()
      .execute()
  }

  create(userId: number, fields: F, now: number): Promise<NamedRow<T>> {
    return this.named
      .insertInto(this.table)
      .values({ user_id: userId, ...fields, created_at: now, updated_at: now })
      .returningAll()
      .$castTo<Selectable<Database[T]>>()
      .executeTakeFirstOrThrow()
  }

  update(id: number, fields: Partial<F>, now: number): Promise<NamedRow<T>> {
    return this.named
      .updateTable(this.table)
      .set({ ...fields, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .$castTo<Selectable<Database[T]>>()
      .executeTakeFirstOrThrow()
  }

  async delete(id: number): Promise<void> {
    await this.named.deleteFrom(this.table).where('id', '=', id).execute()
  }
}
