/** Links and their pixel sets. */
import { sql } from 'kysely'
import type { Db } from '../db/connect.js'
import { fetchPage, type Page, type PageRequest } from '../db/paging.js'
import { containsInsensitive, textSortKey } from '../db/sql-helpers.js'
import type { LinkRow, LinkRowUpdate, NewLinkRow } from '../db/types.js'
import type { LinkKey } from '../shared/link-keys.js'

export type LinkStatus = 'active' | 'expired' | 'disabled'

export interface LinkFilter {
  search?: string
  searchBy: 'title' | 'alias' | 'url'
  status?: LinkStatus
  /** 0 selects links in no space. */
  spaceId?: number
  domainId?: number
  pixelId?: number
  sortBy: 'id' | 'clicks' | 'title' | 'alias' | 'url'
}

export interface LinkStore {
  list(userId: number, filter: LinkFilter, page: PageRequest, now: number): Promise<Page<LinkRow>>
  /** The next `limit` links of the filter after id `afterId`, in id order (for exports). */
  listAfter(
    userId: number,
    filter: LinkFilter,
    now: number,
    afterId: number,
    limit: number,
  ): Promise<LinkRow[]>
  find(userId: number, id: number): Promise<LinkRow | undefined>
  /** A link whoever owns it (background work that has only its id). */
  findById(id: number): Promise<LinkRow | undefined>
  findByAlias(domainId: number, alias: string): Promise<LinkRow | undefined>
  aliasTaken(domainId: number, alias: string): Promise<boolean>
  create(row: NewLinkRow, pixelIds: number[]): Promise<LinkRow>
  /** `pixelIds` undefined leaves the set alone. */
  update(id: number, changes: LinkRowUpdate, pixelIds: number[] | undefined): Promise<LinkRow>
  delete(id: number): Promise<void>
  pixelIdsOf(linkIds: number[]): Promise<Map<number, number[]>>
  keysOf(filter: { spaceId?: number; pixelId?: number; domainId?: number }): Promise<LinkKey[]>
  /** Every link in a space, on a domain or carrying a pixel, in id order. */
  rowsOf(filter: { spaceId?: number; pixelId?: number; domainId?: number }): Promise<LinkRow[]>
  /** Sets a fetched title unless the client has set one or the URL changed meanwhile. */
  setFetchedTitle(id: number, url: string, title: string): Promise<void>
}

export class SqlLinkStore implements LinkStore {
  constructor(private readonly db: Db) {}

  list(userId: number, filter: LinkFilter, page: PageRequest, now: number): Promise<Page<LinkRow>> {
    const base = this.filtered(userId, filter, now)
    const sortKey =
      filter.sortBy === 'id' || filter.sortBy === 'clicks'
        ? filter.sortBy
        : textSortKey(filter.sortBy, this.db.dialect)
    return fetchPage(base, (qb) => qb.selectAll(), sortKey, 'id', page)
  }

  listAfter(
    userId: number,
    filter: LinkFilter,
    now: number,
    afterId: number,
    limit: number,
  ): Promise<LinkRow[]> {
    return this.filtered(userId, filter, now)
      .selectAll()
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute()
  }

  private filtered(userId: number, filter: LinkFilter, now: number) {
    let base = this.db.kysely.selectFrom('links').where('user_id', '=', userId)
    if (filter.search) base = base.where(containsInsensitive(filter.searchBy, filter.search))
    if (filter.spaceId !== undefined) {
      base =
        filter.spaceId === 0
          ? base.where('space_id', 'is', null)
          : base.where('space_id', '=', filter.spaceId)
    }
    if (filter.domainId !== undefined) base = base.where('domain_id', '=', filter.domainId)
    if (filter.pixelId !== undefined) {
      const pixelId = filter.pixelId
      base = base.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('link_pixels')
            .select('link_id')
            .whereRef('link_pixels.link_id', '=', 'links.id')
            .where('link_pixels.pixel_id', '=', pixelId),
        ),
      )
    }
    if (filter.status) base = base.where(statusCondition(filter.status, now))
    return base
  }

  find(userId: number, id: number): Promise<LinkRow | undefined> {
    return this.db.kysely
      .selectFrom('links')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst()
  }

  findById(id: number): Promise<LinkRow | undefined> {
    return this.db.kysely.selectFrom('links').selectAll().where('id', '=', id).executeTakeFirst()
  }

  findByAlias(domainId: number, alias: string): Promise<LinkRow | undefined> {
    return this.db.kysely
      .selectFrom('links')
      .selectAll()
      .where('domain_id', '=', domainId)
      .where('alias', '=', alias)
      .executeTakeFirst()
  }

  async aliasTaken(domainId: number, alias: string): Promise<boolean> {
    const row = await this.db.kysely
      .selectFrom('links')
      .select('id')
      .where('domain_id', '=', domainId)
      .where('alias', '=', alias)
      .executeTakeFirst()
    return row !== undefined
  }

  create(row: NewLinkRow, pixelIds: number[]): Promise<LinkRow> {
    return this.db.transaction(async () => {
      const trx = this.db.kysely
      const link = await trx
        .insertInto('links')
        .values(row)
        .returningAll()
        .executeTakeFirstOrThrow()
      if (pixelIds.length > 0) {
        await trx
          .insertInto('link_pixels')
          .values(pixelIds.map((pixel_id) => ({ link_id: link.id, pixel_id })))
          .execute()
      }
      return link
    })
  }

  update(id: number, changes: LinkRowUpdate, pixelIds: number[] | undefined): Promise<LinkRow> {
    return this.db.transaction(async () => {
      const trx = this.db.kysely
      const link = await trx
        .updateTable('links')
        .set(changes)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      if (pixelIds !== undefined) {
        await trx.deleteFrom('link_pixels').where('link_id', '=', id).execute()
        if (pixelIds.length > 0) {
          await trx
            .insertInto('link_pixels')
            .values(pixelIds.map((pixel_id) => ({ link_id: id, pixel_id })))
            .execute()
        }
      }
      return link
    })
  }

  async delete(id: number): Promise<void> {
    await this.db.kysely.deleteFrom('links').where('id', '=', id).execute()
  }

  async pixelIdsOf(linkIds: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>()
    if (linkIds.length === 0) return map
    const rows = await this.db.kysely
      .selectFrom('link_pixels')
      .select(['link_id', 'pixel_id'])
      .where('link_id', 'in', linkIds)
      .orderBy('pixel_id')
      .execute()
    for (const row of rows) {
      const list = map.get(row.link_id) ?? []
      list.push(row.pixel_id)
      map.set(row.link_id, list)
    }
    return map
  }

  async keysOf(filter: {
    spaceId?: number
    pixelId?: number
    domainId?: number
  }): Promise<LinkKey[]> {
    let query = this.db.kysely
      .selectFrom('links')
      .select(['links.id', 'links.domain_id', 'links.alias'])
    if (filter.spaceId !== undefined) query = query.where('links.space_id', '=', filter.spaceId)
    if (filter.domainId !== undefined) query = query.where('links.domain_id', '=', filter.domainId)
    if (filter.pixelId !== undefined) {
      query = query
        .innerJoin('link_pixels', 'link_pixels.link_id', 'links.id')
        .where('link_pixels.pixel_id', '=', filter.pixelId)
    }
    const rows = await query.execute()
    return rows.map((r) => ({ id: r.id, domainId: r.domain_id, alias: r.alias }))
  }

  rowsOf(filter: { spaceId?: number; pixelId?: number; domainId?: number }): Promise<LinkRow[]> {
    let query = this.db.kysely.selectFrom('links').selectAll()
    if (filter.spaceId !== undefined) query = query.where('space_id', '=', filter.spaceId)
    if (filter.domainId !== undefined) query = query.where('domain_id', '=', filter.domainId)
    const { pixelId } = filter
    if (pixelId !== undefined) {
      query = query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('link_pixels')
            .select('link_id')
            .whereRef('link_pixels.link_id', '=', 'links.id')
            .where('link_pixels.pixel_id', '=', pixelId),
        ),
      )
    }
    return query.orderBy('id').execute()
  }

  async setFetchedTitle(id: number, url: string, title: string): Promise<void> {
    await this.db.kysely
      .updateTable('links')
      .set({ title })
      .where('id', '=', id)
      .where('url', '=', url)
      .where('title_locked', '=', 0)
      .execute()
  }
}

/**
 * The SQL form of a link's status (the redirect applies the same rule to a cached link:
 * RedirectEngine.isExpired).
 */
function statusCondition(status: LinkStatus, now: number) {
  if (status === 'disabled') return sql<boolean>`disabled = 1`
  const expired = sql`((ends_at is not null and ends_at <= ${now}) or (coalesce(expiration_clicks, 0) > 0 and clicks >= expiration_clicks))`
  return status === 'expired'
    ? sql<boolean>`(disabled = 0 and ${expired})`
    : sql<boolean>`(disabled = 0 and not ${expired})`
}
