/** Domains: global ones (no owner) and each user's own. */
import type { Db } from '../db/connect.js'
import { prepared } from '../db/prepared.js'
import { fetchPage, type Page, type PageRequest } from '../db/paging.js'
import { containsInsensitive, textSortKey } from '../db/sql-helpers.js'
import type { SelectQueryBuilder } from 'kysely'
import type { Database, DomainRow } from '../db/types.js'

export interface DomainFields {
  name: string
  url: string
  index_page: string | null
  not_found_page: string | null
}

export interface DomainFilter {
  search?: string
  sortBy: 'id' | 'name'
}

export interface DomainStore {
  /** The user's own domains and the global ones. */
  list(userId: number, filter: DomainFilter, page: PageRequest): Promise<Page<DomainRow>>
  /** The global domains only. */
  listGlobal(filter: DomainFilter, page: PageRequest): Promise<Page<DomainRow>>
  listAll(): Promise<DomainRow[]>
  /** A domain the user may use: their own or a global one. */
  findVisible(userId: number, id: number): Promise<DomainRow | undefined>
  findByName(name: string): Promise<DomainRow | undefined>
  findById(id: number): Promise<DomainRow | undefined>
  findMany(ids: number[]): Promise<DomainRow[]>
  create(userId: number | null, fields: DomainFields, now: number): Promise<DomainRow>
  update(id: number, fields: Partial<DomainFields>, now: number): Promise<DomainRow>
  delete(id: number): Promise<void>
}

export class SqlDomainStore implements DomainStore {
  constructor(private readonly db: Db) {}

  /** One domain by id: what every presented link asks (prepared, see db/prepared.ts). */
  private readonly findOne = prepared(
    () => this.db,
    1,
    (id: number) => this.db.kysely.selectFrom('domains').selectAll().where('id', '=', id),
  )

  list(userId: number, filter: DomainFilter, page: PageRequest): Promise<Page<DomainRow>> {
    return this.page(
      this.db.kysely
        .selectFrom('domains')
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('user_id', 'is', null)])),
      filter,
      page,
    )
  }

  listGlobal(filter: DomainFilter, page: PageRequest): Promise<Page<DomainRow>> {
    return this.page(
      this.db.kysely.selectFrom('domains').where('user_id', 'is', null),
      filter,
      page,
    )
  }

  private page(
    from: SelectQueryBuilder<Database, 'domains', object>,
    filter: DomainFilter,
    page: PageRequest,
  ): Promise<Page<DomainRow>> {
    let base = from
    if (filter.search)
      base = base.where(containsInsensitive('name', filter.search, this.db.dialect))
    const sortKey = filter.sortBy === 'name' ? textSortKey('name', this.db.dialect) : 'id'
    return fetchPage(base, (qb) => qb.selectAll(), sortKey, 'id', page)
  }

  listAll(): Promise<DomainRow[]> {
    return this.db.kysely.selectFrom('domains').selectAll().orderBy('id').execute()
  }

  /** A domain a user may put links on: asked by every link created (prepared). */
  private readonly visible = prepared(
    () => this.db,
    2,
    (userId: number, id: number) =>
      this.db.kysely
        .selectFrom('domains')
        .selectAll()
        .where('id', '=', id)
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('user_id', 'is', null)])),
  )

  async findVisible(userId: number, id: number): Promise<DomainRow | undefined> {
    return (await this.visible(userId, id))[0]
  }

  findByName(name: string): Promise<DomainRow | undefined> {
    return this.db.kysely
      .selectFrom('domains')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst()
  }

  findById(id: number): Promise<DomainRow | undefined> {
    return this.db.kysely.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst()
  }

  async findMany(ids: number[]): Promise<DomainRow[]> {
    if (ids.length === 0) return []
    if (ids.length === 1) return this.findOne(ids[0]!)
    return this.db.kysely.selectFrom('domains').selectAll().where('id', 'in', ids).execute()
  }

  create(userId: number | null, fields: DomainFields, now: number): Promise<DomainRow> {
    return this.db.kysely
      .insertInto('domains')
      .values({ user_id: userId, ...fields, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  update(id: number, fields: Partial<DomainFields>, now: number): Promise<DomainRow> {
    return this.db.kysely
      .updateTable('domains')
      .set({ ...fields, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  async delete(id: number): Promise<void> {
    await this.db.kysely.deleteFrom('domains').where('id', '=', id).execute()
  }
}
