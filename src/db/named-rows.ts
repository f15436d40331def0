/**
 * What the stores of spaces and pixels share: rows that belong to one user and carry a name
 * unique among that user's rows. Each store names its table and adds its own list filters.
 */
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely'
import type { Db } from './connect.js'
import { fetchPage, type Page, type PageRequest } from './paging.js'
import { containsInsensitive, textSortKey } from './sql-helpers.js'
import type { Database } from './types.js'

type Named = Pick<Database, 'spaces' | 'pixels'>
type Table = keyof Named

export abstract class NamedRowStore<T extends Table, Fields extends object> {
  constructor(
    protected readonly db: Db,
    private readonly table: T,
  ) {}

  /**
   * The builder over this store's table. Both tables have the columns used here (id, user_id,
   * name, timestamps); the query builder is told it is `spaces` to type them once.
   */
  private get rows() {
    return (this.db.kysely as unknown as Kysely<Named>).selectFrom(this.table as 'spaces')
  }

  protected page(
    userId: number,
    search: string | undefined,
    sortBy: 'id' | 'name',
    page: PageRequest,
    narrow: (
      qb: SelectQueryBuilder<Named, 'spaces', object>,
    ) => SelectQueryBuilder<Named, 'spaces', object> = (qb) => qb,
  ): Promise<Page<Selectable<Named[T]>>> {
    let base = narrow(this.rows.where('user_id', '=', userId))
    if (search) base = base.where(containsInsensitive('name', search, this.db.dialect))
    const sortKey = sortBy === 'name' ? textSortKey('name', this.db.dialect) : 'id'
    return fetchPage(base, (qb) => qb.selectAll(), sortKey, 'id', page) as Promise<
      Page<Selectable<Named[T]>>
    >
  }

  find(userId: number, id: number): Promise<Selectable<Named[T]> | undefined> {
    return this.rows
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst() as Promise<Selectable<Named[T]> | undefined>
  }

  findByName(userId: number, name: string): Promise<Selectable<Named[T]> | undefined> {
    return this.rows
      .selectAll()
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .executeTakeFirst() as Promise<Selectable<Named[T]> | undefined>
  }

  async findMany(userId: number, ids: number[]): Promise<Selectable<Named[T]>[]> {
    if (ids.length === 0) return []
    return (await this.rows
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute()) as Selectable<Named[T]>[]
  }

  create(userId: number, fields: Fields, now: number): Promise<Selectable<Named[T]>> {
    return (this.db.kysely as unknown as Kysely<Named>)
      .insertInto(this.table as 'spaces')
      .values({
        user_id: userId,
        ...(fields as { name: string; color: number }),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow() as Promise<Selectable<Named[T]>>
  }

  update(id: number, fields: Partial<Fields>, now: number): Promise<Selectable<Named[T]>> {
    return (this.db.kysely as unknown as Kysely<Named>)
      .updateTable(this.table as 'spaces')
      .set({ ...(fields as { name?: string }), updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow() as Promise<Selectable<Named[T]>>
  }

  async delete(id: number): Promise<void> {
    await (this.db.kysely as unknown as Kysely<Named>)
      .deleteFrom(this.table as 'spaces')
      .where('id', '=', id)
      .execute()
  }
}
