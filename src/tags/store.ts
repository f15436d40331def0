/** Tags: a user's labels of links, counted by the links that carry them. */
import { sql } from 'kysely'
import type { Db } from '../db/connect.js'
import { fetchPage, type Page, type PageRequest } from '../db/paging.js'
import { containsInsensitive, textSortKey } from '../db/sql-helpers.js'
import type { TagRow } from '../db/types.js'
import { tagKey } from './names.js'

export interface TagFields {
  name: string
  color: number
}

export interface TagFilter {
  search?: string
  sortBy: 'id' | 'name' | 'links'
}

export interface TagStore {
  list(userId: number, filter: TagFilter, page: PageRequest): Promise<Page<TagRow>>
  find(userId: number, id: number): Promise<TagRow | undefined>
  /** The user's tag of that name, ignoring case. */
  findByName(userId: number, name: string): Promise<TagRow | undefined>
  create(userId: number, fields: TagFields, now: number): Promise<TagRow>
  update(id: number, fields: Partial<TagFields>, now: number): Promise<TagRow>
  delete(id: number): Promise<void>
  /** When the oldest link carrying the tag was made, or null when none does. */
  oldestLinkAt(tagId: number): Promise<number | null>
  /** Moves the links of tag `fromId` to `intoId` (a link with both keeps one) and deletes it. */
  merge(fromId: number, intoId: number): Promise<void>
  /**
   * The user's tags of these names, made (color 1) where missing: their ids and stored names
   * in the order of `names`, and the rows made.
   */
  ensure(
    userId: number,
    names: string[],
    now: number,
  ): Promise<{ tags: { id: number; name: string }[]; created: TagRow[] }>
}

/** A tag's number of links, read beside its row. */
const linkCount = sql<number>`(select count(*) from link_tags where link_tags.tag_id = tags.id)`

export class SqlTagStore implements TagStore {
  constructor(private readonly db: Db) {}

  private get rows() {
    return this.db.kysely.selectFrom('tags').selectAll('tags').select(linkCount.as('links'))
  }

  private static counted<R extends { links: number | string | bigint }>(
    row: R,
  ): R & { links: number } {
    return { ...row, links: Number(row.links) }
  }

  async list(userId: number, filter: TagFilter, page: PageRequest): Promise<Page<TagRow>> {
    let base = this.db.kysely.selectFrom('tags').where('user_id', '=', userId)
    if (filter.search)
      base = base.where(containsInsensitive('name', filter.search, this.db.dialect))
    const sortKey =
      filter.sortBy === 'name'
        ? textSortKey('name', this.db.dialect)
        : filter.sortBy === 'links'
          ? linkCount
          : 'id'
    const found = await fetchPage(
      base,
      (qb) => qb.selectAll('tags').select(linkCount.as('links')),
      sortKey,
      'id',
      page,
    )
    return { ...found, rows: found.rows.map(SqlTagStore.counted) }
  }

  async find(userId: number, id: number): Promise<TagRow | undefined> {
    const row = await this.rows
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return row && SqlTagStore.counted(row)
  }

  async findByName(userId: number, name: string): Promise<TagRow | undefined> {
    const row = await this.rows
      .where('user_id', '=', userId)
      .where('name_key', '=', tagKey(name))
      .executeTakeFirst()
    return row && SqlTagStore.counted(row)
  }

  async create(userId: number, fields: TagFields, now: number): Promise<TagRow> {
    const row = await this.db.kysely
      .insertInto('tags')
      .values({
        user_id: userId,
        ...fields,
        name_key: tagKey(fields.name),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    return { ...row, links: 0 }
  }

  async update(id: number, fields: Partial<TagFields>, now: number): Promise<TagRow> {
    await this.db.kysely
      .updateTable('tags')
      .set({
        ...fields,
        ...(fields.name === undefined ? {} : { name_key: tagKey(fields.name) }),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute()
    const row = await this.rows.where('id', '=', id).executeTakeFirstOrThrow()
    return SqlTagStore.counted(row)
  }

  async delete(id: number): Promise<void> {
    await this.db.kysely.deleteFrom('tags').where('id', '=', id).execute()
  }

  async oldestLinkAt(tagId: number): Promise<number | null> {
    const row = await this.db.kysely
      .selectFrom('links')
      .select(sql<number | string | null>`min(created_at)`.as('at'))
      .where(
        'id',
        'in',
        this.db.kysely.selectFrom('link_tags').select('link_id').where('tag_id', '=', tagId),
      )
      .executeTakeFirst()
    return row?.at == null ? null : Number(row.at)
  }

  merge(fromId: number, intoId: number): Promise<void> {
    return this.db.transaction(async () => {
      await this.db.kysely
        .insertInto('link_tags')
        .columns(['link_id', 'tag_id'])
        .expression((eb) =>
          eb
            .selectFrom('link_tags')
            .select(['link_id', sql<number>`${intoId}`.as('tag_id')])
            .where('tag_id', '=', fromId),
        )
        .onConflict((oc) => oc.columns(['link_id', 'tag_id']).doNothing())
        .execute()
      await this.delete(fromId)
    })
  }

  async ensure(
    userId: number,
    names: string[],
    now: number,
  ): Promise<{ tags: { id: number; name: string }[]; created: TagRow[] }> {
    if (names.length === 0) return { tags: [], created: [] }
    const keys = names.map(tagKey)
    const created = await this.db.kysely
      .insertInto('tags')
      .values(
        names.map((name) => ({
          user_id: userId,
          name,
          name_key: tagKey(name),
          color: 1,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['user_id', 'name_key']).doNothing())
      .returningAll()
      .execute()
    const found = await this.db.kysely
      .selectFrom('tags')
      .select(['id', 'name', 'name_key'])
      .where('user_id', '=', userId)
      .where('name_key', 'in', keys)
      .execute()
    const byKey = new Map(found.map((t) => [t.name_key, { id: t.id, name: t.name }]))
    return {
      tags: keys.flatMap((key) => byKey.get(key) ?? []),
      created: created.map((row) => ({ ...row, links: 0 })),
    }
  }
}
