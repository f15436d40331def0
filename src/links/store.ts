/** Links and their pixel sets. */
import {
  sql,
  type Compilable,
  type Insertable,
  type SelectQueryBuilder,
  type Updateable,
} from 'kysely'
import type { Db } from '../db/connect.js'
import { prepared } from '../db/prepared.js'
import { fetchPage, type Page, type PageRequest } from '../db/paging.js'
import { everyColumn, idList, inIdList, textSortKey, type IdList } from '../db/sql-helpers.js'
import { LINK_COUNTS, type LinkCountsTable } from '../db/migrations/0014-link-counts.js'
import {
  LINK_COUNT_DELTAS,
  type LinkCountDeltasTable,
} from '../db/migrations/0015-postgres-link-counts.js'
import type {
  Database,
  DomainRow,
  LinkRow,
  LinkRowUpdate,
  LinksTable,
  NewLinkRow,
  StoredLinkRow,
} from '../db/types.js'
import type { LinkRelationFilter } from '../events/types.js'
import { NotFoundError } from '../shared/errors.js'
import { tagKey } from '../tags/names.js'
import type { LinkKey } from '../shared/link-keys.js'
import { changesToStored, linkFromStored, newLinkToStored } from './stored-link.js'
import { searchCondition } from './search-condition.js'

export type LinkStatus = 'active' | 'expired' | 'disabled'

export interface LinkFilter {
  search?: string
  /** `all`: alias, URL or title. */
  searchBy: 'title' | 'alias' | 'url' | 'all'
  status?: LinkStatus
  /** 0 selects links in no space. */
  spaceId?: number
  domainId?: number
  pixelId?: number
  /** Names of tags (any case): links carrying any of them, or all with `tagMode` `all`. */
  tags?: string[]
  tagMode?: 'any' | 'all'
  sortBy: 'id' | 'clicks' | 'title' | 'alias' | 'url'
}

export interface LinkStore {
  /**
   * `countCap`: count at most that many (see fetchPage); the API counts them all. Every link of
   * the user (no filter) is never counted: their number is kept by the database, and exact.
   */
  list(
    userId: number,
    filter: LinkFilter,
    page: PageRequest,
    now: number,
    countCap?: number,
  ): Promise<Page<LinkRow>>
  /** The first `limit` links of the filter in its order, without counting them all. */
  first(
    userId: number,
    filter: LinkFilter,
    now: number,
    limit: number,
    sort: 'asc' | 'desc',
  ): Promise<LinkRow[]>
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
  create(row: NewLinkRow, pixelIds: number[], tagIds?: number[]): Promise<LinkRow>
  /** `pixelIds` (`tagIds`) undefined leaves the set alone. */
  update(
    id: number,
    changes: LinkRowUpdate,
    pixelIds: number[] | undefined,
    tagIds?: number[],
  ): Promise<LinkRow>
  delete(id: number): Promise<void>
  pixelIdsOf(linkIds: number[]): Promise<Map<number, number[]>>
  /** The names of the links' tags (a link without tags is absent), in no particular order. */
  tagNamesOf(linkIds: number[]): Promise<Map<number, string[]>>
  keysOf(filter: LinkRelationFilter): Promise<LinkKey[]>
  /** Every link in a space, on a domain or carrying a pixel or a tag, in id order. */
  rowsOf(filter: LinkRelationFilter): Promise<LinkRow[]>
  /** Sets a fetched title unless the client has set one or the URL changed meanwhile. */
  setFetchedTitle(id: number, url: string, title: string): Promise<void>
  /** Marks a link as waiting for its title. */
  markTitleFetch(id: number, at: number): Promise<void>
  /** Clears the mark of a finished fetch of `url` (a newer URL keeps its mark). */
  finishTitleFetch(id: number, url: string): Promise<void>
  /** Links waiting for their title after `afterId`, in id order. */
  pendingTitleFetches(afterId: number, limit: number): Promise<{ id: number; url: string }[]>
}

/** Every column of a new link but its id, in one order (everyColumn keeps it whole). */
const NEW_LINK_COLUMNS = everyColumn<Omit<NewLinkRow, 'id'>>()([
  'user_id',
  'domain_id',
  'space_id',
  'alias',
  'url',
  'title',
  'title_locked',
  'target_type',
  'country_target',
  'platform_target',
  'language_target',
  'rotation_target',
  'last_rotation',
  'rules',
  'disabled',
  'privacy',
  'privacy_password',
  'password',
  'expiration_url',
  'expiration_clicks',
  'clicks',
  'ends_at',
  'created_at',
  'updated_at',
  'title_fetch_at',
  'og_title',
  'og_description',
  'og_image',
])

/**
 * What a read of links took from the rows around them in the same statement: the link's domain
 * and its pixels' ids. A link is shown with both, and on PostgreSQL each separate read was a
 * round trip of its own.
 */
export interface RelationsRead {
  domain: DomainRow
  /** In id order. */
  pixelIds: number[]
}

const relationsRead = new WeakMap<StoredLinkRow | LinkRow, RelationsRead>()

/** The relations read with this row (by `find` and a search's page), if they were. */
export function relationsReadWith(row: LinkRow): RelationsRead | undefined {
  return relationsRead.get(row)
}

/** The link of a stored row, with the relations read with the row (if they were). */
function linkOf(row: StoredLinkRow): LinkRow {
  const link = linkFromStored(row)
  const relations = relationsRead.get(row)
  if (relations !== undefined) relationsRead.set(link, relations)
  return link
}

/** Every column of a domain, read beside a link's as `domain__<column>`. */
const DOMAIN_COLUMNS = everyColumn<DomainRow>()([
  'id',
  'user_id',
  'name',
  'url',
  'index_page',
  'not_found_page',
  'created_at',
  'updated_at',
])

type DomainColumnsRead = { [C in keyof DomainRow as `domain__${C}`]: DomainRow[C] }
/** A link's row as read with its relations, before `splitRead` takes them off. */
type RowRead = StoredLinkRow & DomainColumnsRead & { pixel_ids_read: string | null }

/**
 * The link's columns, its domain's and its pixel ids (comma-separated, in id order), on
 * PostgreSQL. SQLite does not use it: its separate statements cost no round trip, and the same
 * read was slower there (a join scanned the domains table, about 25 µs a row on the bench's
 * database; with these subqueries a show still went 11,300-12,100 a second against
 * 13,800-15,300 for the separate statements).
 */
function withRelations(qb: SelectQueryBuilder<Database, 'links', object>): Compilable<RowRead> {
  return qb
    .selectAll('links')
    .select(
      DOMAIN_COLUMNS.map((column) =>
        sql`(select ${sql.ref(column)} from domains where id = links.domain_id)`.as(
          `domain__${column}`,
        ),
      ),
    )
    .select(
      sql`(select string_agg(pixel_id::text, ',' order by pixel_id) from link_pixels where link_id = links.id)`.as(
        'pixel_ids_read',
      ),
    ) as unknown as Compilable<RowRead>
}

/** The link's row alone; its relations are kept for `relationsReadWith`. */
function splitRead(read: RowRead): StoredLinkRow {
  const {
    domain__id,
    domain__user_id,
    domain__name,
    domain__url,
    domain__index_page,
    domain__not_found_page,
    domain__created_at,
    domain__updated_at,
    pixel_ids_read,
    ...row
  } = read
  relationsRead.set(row, {
    domain: {
      id: domain__id,
      user_id: domain__user_id,
      name: domain__name,
      url: domain__url,
      index_page: domain__index_page,
      not_found_page: domain__not_found_page,
      created_at: domain__created_at,
      updated_at: domain__updated_at,
    },
    pixelIds: pixel_ids_read === null ? [] : pixel_ids_read.split(',').map(Number),
  })
  return row
}

export class SqlLinkStore implements LinkStore {
  /**
   * `failed`: told of what fails after an answer was given (a fold of the counts of links, which
   * the next read tries again); the server logs it.
   */
  constructor(
    private readonly db: Db,
    private readonly failed: (error: unknown) => void = () => {},
  ) {}

  // What every request about one link asks (prepared, see db/prepared.ts): on SQLite the link
  // alone, its domain and pixels being statements of their own, which cost less there; on
  // PostgreSQL, findOwnedWithRelations, as each of them was a round trip of its own.
  private readonly findOwned = prepared(
    () => this.db,
    2,
    (userId: number, id: number) =>
      this.db.kysely
        .selectFrom('links')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId),
  )
  private readonly findOwnedWithRelations = prepared(
    () => this.db,
    2,
    (userId: number, id: number) =>
      withRelations(
        this.db.kysely
          .selectFrom('links')
          .where('links.id', '=', id)
          .where('links.user_id', '=', userId),
      ),
  )
  private readonly aliasOnDomain = prepared(
    () => this.db,
    2,
    (domainId: number, alias: string) =>
      this.db.kysely
        .selectFrom('links')
        .select('id')
        .where('domain_id', '=', domainId)
        .where('alias', '=', alias),
  )
  /** The pixels of a page of links: one prepared query whatever the page's length. */
  private readonly pixelIdsOfMany = prepared(
    () => this.db,
    1,
    (ids: IdList) =>
      this.db.kysely
        .selectFrom('link_pixels')
        .select(['link_id', 'pixel_id'])
        .where(inIdList('link_id', ids, this.db.dialect))
        .orderBy('pixel_id'),
  )
  /** Links by id, in no particular order: one prepared query whatever the number of ids. */
  private readonly rowsWithIds = prepared(
    () => this.db,
    1,
    (ids: IdList) =>
      this.db.kysely
        .selectFrom('links')
        .selectAll()
        .where(inIdList('id', ids, this.db.dialect)),
  )
  /** The same with their relations (PostgreSQL, see findOwned). */
  private readonly rowsWithIdsAndRelations = prepared(
    () => this.db,
    1,
    (ids: number[]) =>
      withRelations(
        this.db.kysely.selectFrom('links').where(inIdList('links.id', ids, 'postgres')),
      ),
  )
  private readonly pixelIdsOfOne = prepared(
    () => this.db,
    1,
    (linkId: number) =>
      this.db.kysely
        .selectFrom('link_pixels')
        .select(['link_id', 'pixel_id'])
        .where('link_id', '=', linkId)
        .orderBy('pixel_id'),
  )

  /** The user's number of links, kept by triggers (SQLite, migration 0014). */
  private readonly linkCount = prepared(
    () => this.db,
    1,
    (userId: number) =>
      this.db.kysely
        .withTables<LinkCountsTable>()
        .selectFrom(LINK_COUNTS)
        .select('links')
        .where('user_id', '=', userId),
  )

  /**
   * The user's number of links on PostgreSQL: the sum of the changes the triggers of migration
   * 0015 write, and how many rows of changes it summed.
   */
  private readonly linkCountChanges = prepared(
    () => this.db,
    1,
    (userId: number) =>
      this.db.kysely
        .withTables<LinkCountDeltasTable>()
        .selectFrom(LINK_COUNT_DELTAS)
        .select([
          sql<number>`coalesce(sum(delta), 0)::bigint`.as('links'),
          sql<number>`count(*)::int`.as('changes'),
        ])
        .where('user_id', '=', userId),
  )
  /** Users whose rows of changes this process is folding. */
  private readonly folding = new Set<number>()

  /** Every link of the user, counted by the database's triggers (migrations 0014 and 0015). */
  private async keptLinkCount(userId: number): Promise<number> {
    if (this.db.dialect === 'sqlite') {
      // Read on the read-only connection, which sees every commit of this process, and
      // another's within db/read-snapshot.ts's MAX_AGE_MS.
      return (await this.linkCount(userId))[0]?.links ?? 0
    }
    const { links, changes } = (await this.linkCountChanges(userId))[0] ?? { links: 0, changes: 0 }
    if (changes > FOLD_CHANGES_AFTER && !this.folding.has(userId)) {
      this.folding.add(userId)
      // After the answer: a fold is one statement, so a failed one changes nothing, and the
      // next read that finds too many rows tries again.
      this.foldLinkCounts(userId)
        .catch(this.failed)
        .finally(() => this.folding.delete(userId))
    }
    return links
  }

  /**
   * Folds the user's rows of changes to its number of links (PostgreSQL) into one, or none when
   * they sum to 0. One statement: the rows it deletes are those it sums, and a change committed
   * meanwhile, or folded by another process, is left as it is.
   */
  async foldLinkCounts(userId: number): Promise<void> {
    if (this.db.dialect !== 'postgres') return
    await sql`WITH gone AS (
        DELETE FROM link_count_deltas WHERE user_id = ${userId} RETURNING delta)
      INSERT INTO link_count_deltas (user_id, delta)
      SELECT ${userId}, sum(delta) FROM gone HAVING sum(delta) <> 0`.execute(this.db.kysely)
  }

  async list(
    userId: number,
    filter: LinkFilter,
    page: PageRequest,
    now: number,
    countCap?: number,
  ): Promise<Page<LinkRow>> {
    const { query: base, narrowed } = this.filtered(userId, filter, now)
    // Every link of the user: their number is kept, exact for the dashboard too.
    const total = narrowed ? undefined : await this.keptLinkCount(userId)
    // A search selects few links: its page and total come from one pass (see PageOptions).
    const found = await fetchPage(base, (qb) => qb.selectAll(), this.sortKey(filter), 'id', page, {
      ...(countCap === undefined ? {} : { countCap }),
      ...(total === undefined ? {} : { total }),
      ...(filter.search
        ? {
            byIds: {
              dialect: this.db.dialect,
              rows: async (ids: number[]) =>
                this.db.dialect === 'postgres'
                  ? (await this.rowsWithIdsAndRelations(ids)).map(splitRead)
                  : this.rowsWithIds(idList(ids, 'sqlite')),
            },
          }
        : {}),
    })
    return { ...found, rows: found.rows.map(linkOf) }
  }

  async first(
    userId: number,
    filter: LinkFilter,
    now: number,
    limit: number,
    sort: 'asc' | 'desc',
  ): Promise<LinkRow[]> {
    const key = this.sortKey(filter)
    const { query } = this.filtered(userId, filter, now)
    const rows = await query
      .selectAll()
      .orderBy(typeof key === 'string' ? sql.ref(key) : key, sort)
      .orderBy('id', sort)
      .limit(limit)
      .execute()
    return rows.map(linkFromStored)
  }

  private sortKey(filter: LinkFilter) {
    return filter.sortBy === 'id' || filter.sortBy === 'clicks'
      ? filter.sortBy
      : textSortKey(filter.sortBy, this.db.dialect)
  }

  async listAfter(
    userId: number,
    filter: LinkFilter,
    now: number,
    afterId: number,
    limit: number,
  ): Promise<LinkRow[]> {
    const { query } = this.filtered(userId, filter, now)
    const rows = await query
      .selectAll()
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map(linkFromStored)
  }

  /** The user's links the filter selects; `narrowed` when it leaves any out. */
  private filtered(userId: number, filter: LinkFilter, now: number) {
    const all = this.db.kysely.selectFrom('links').where('user_id', '=', userId)
    let base = all
    if (filter.search) {
      base = base.where(searchCondition(filter.searchBy, filter.search, this.db.dialect))
    }
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
    if (filter.tags !== undefined && filter.tags.length > 0) {
      base = base.where('id', 'in', this.taggedLinks(userId, filter.tags, filter.tagMode ?? 'any'))
    }
    if (filter.status) base = base.where(statusCondition(filter.status, now))
    // Each condition makes a new query: the same one is every link of the user.
    return { query: base, narrowed: base !== all }
  }

  /**
   * The ids of the links carrying any (or all) of the user's tags of these names: read from the
   * index of link_tags by tag.
   */
  private taggedLinks(userId: number, names: string[], mode: 'any' | 'all') {
    const keys = [...new Set(names.map(tagKey))]
    const tagIds = this.db.kysely
      .selectFrom('tags')
      .select('tags.id')
      .where('tags.user_id', '=', userId)
      .where('tags.name_key', 'in', keys)
    const carriers = this.db.kysely
      .selectFrom('link_tags')
      .select('link_tags.link_id')
      .where('link_tags.tag_id', 'in', tagIds)
    return mode === 'any' || keys.length === 1
      ? carriers
      : carriers.groupBy('link_tags.link_id').having(sql<number>`count(*)`, '=', keys.length)
  }

  async find(userId: number, id: number): Promise<LinkRow | undefined> {
    if (this.db.dialect === 'sqlite') {
      const [row] = await this.findOwned(userId, id)
      return row === undefined ? undefined : linkFromStored(row)
    }
    const [read] = await this.findOwnedWithRelations(userId, id)
    return read === undefined ? undefined : linkOf(splitRead(read))
  }

  async findById(id: number): Promise<LinkRow | undefined> {
    const row = await this.db.kysely
      .selectFrom('links')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    return row === undefined ? undefined : linkFromStored(row)
  }

  async findByAlias(domainId: number, alias: string): Promise<LinkRow | undefined> {
    const row = await this.db.kysely
      .selectFrom('links')
      .selectAll()
      .where('domain_id', '=', domainId)
      .where('alias', '=', alias)
      .executeTakeFirst()
    return row === undefined ? undefined : linkFromStored(row)
  }

  async aliasTaken(domainId: number, alias: string): Promise<boolean> {
    return (await this.aliasOnDomain(domainId, alias)).length > 0
  }

  /**
   * A new link, every column given in NEW_LINK_COLUMNS' order: the insert is built and compiled
   * once, not at every create (db/prepared.ts; it runs in the create's transaction).
   */
  private readonly insertLink = prepared(
    () => this.db,
    NEW_LINK_COLUMNS.length,
    (...values: unknown[]) =>
      this.db.kysely
        .insertInto('links')
        .values(
          Object.fromEntries(
            NEW_LINK_COLUMNS.map((column, i) => [column, values[i]]),
          ) as Insertable<LinksTable>,
        )
        // Its columns by name, not `*`: PostgreSQL then names it in the transaction too
        // (db/statement-names.ts).
        .returning(['id', ...NEW_LINK_COLUMNS]),
  )

  create(row: NewLinkRow, pixelIds: number[], tagIds: number[] = []): Promise<LinkRow> {
    const stored = newLinkToStored(row)
    return this.db.transaction(async () => {
      const trx = this.db.kysely
      const [link] = await this.insertLink(
        // The columns with a default in the table are required in a new row: the others are null.
        ...NEW_LINK_COLUMNS.map((column) => stored[column] ?? null),
      )
      if (!link) throw new Error('the new link was not returned')
      if (pixelIds.length > 0) {
        await trx
          .insertInto('link_pixels')
          .values(pixelIds.map((pixel_id) => ({ link_id: link.id, pixel_id })))
          .execute()
      }
      await this.tagLink(link.id, tagIds)
      return linkFromStored(link)
    })
  }

  /** The updates of a link, prepared once per set of columns they change (see updateOf). */
  private readonly updates = new Map<string, (...values: unknown[]) => Promise<StoredLinkRow[]>>()

  /**
   * The update of the given columns of one link (in name order), built and compiled once per set
   * of columns (db/prepared.ts), not at every update: an API update changes a few columns, the
   * same few from call to call. At most UPDATE_SHAPES sets are kept prepared; any other runs
   * through the query builder (on PostgreSQL a prepared query is a statement named on every
   * connection for the life of the process, so the sets must stay few).
   */
  private updateOf(columns: string[]): (...values: unknown[]) => Promise<StoredLinkRow[]> {
    const shape = columns.join(',')
    const kept = this.updates.get(shape)
    if (kept !== undefined) return kept
    const build = (...values: unknown[]) =>
      this.db.kysely
        .updateTable('links')
        .set(
          Object.fromEntries(
            columns.map((column, i) => [column, values[i]]),
          ) as Updateable<LinksTable>,
        )
        .where('id', '=', values[columns.length] as number)
        // Its columns by name, as the insert's.
        .returning(['id', ...NEW_LINK_COLUMNS])
    if (this.updates.size >= UPDATE_SHAPES) return (...values) => build(...values).execute()
    const run = prepared(() => this.db, columns.length + 1, build)
    this.updates.set(shape, run)
    return run
  }

  update(
    id: number,
    changes: LinkRowUpdate,
    pixelIds: number[] | undefined,
    tagIds?: number[],
  ): Promise<LinkRow> {
    const stored = changesToStored(changes)
    return this.db.transaction(async () => {
      const trx = this.db.kysely
      // A column given as undefined is not changed (as the query builder's `set` leaves it).
      const columns = Object.keys(stored)
        .filter((column) => stored[column as keyof typeof stored] !== undefined)
        .sort()
      const values = columns.map((column) => stored[column as keyof typeof stored])
      const [link] = await this.updateOf(columns)(...values, id)
      // Deleted since the service read it: gone, as a read after the delete would say.
      if (!link) throw new NotFoundError()
      if (pixelIds !== undefined) {
        await trx.deleteFrom('link_pixels').where('link_id', '=', id).execute()
        if (pixelIds.length > 0) {
          await trx
            .insertInto('link_pixels')
            .values(pixelIds.map((pixel_id) => ({ link_id: id, pixel_id })))
            .execute()
        }
      }
      if (tagIds !== undefined) {
        await trx.deleteFrom('link_tags').where('link_id', '=', id).execute()
        await this.tagLink(id, tagIds)
      }
      return linkFromStored(link)
    })
  }

  private async tagLink(linkId: number, tagIds: number[]): Promise<void> {
    if (tagIds.length === 0) return
    await this.db.kysely
      .insertInto('link_tags')
      .values(tagIds.map((tag_id) => ({ link_id: linkId, tag_id })))
      .execute()
  }

  /** One link's tag names (a show, a redirect's preview): prepared, unlike a page's list. */
  private readonly tagNamesOfOne = prepared(
    () => this.db,
    1,
    (linkId: number) =>
      this.db.kysely
        .selectFrom('link_tags')
        .innerJoin('tags', 'tags.id', 'link_tags.tag_id')
        .select(['link_tags.link_id', 'tags.name'])
        .where('link_tags.link_id', '=', linkId),
  )

  async tagNamesOf(linkIds: number[]): Promise<Map<number, string[]>> {
    const map = new Map<number, string[]>()
    if (linkIds.length === 0) return map
    const rows =
      linkIds.length === 1
        ? await this.tagNamesOfOne(linkIds[0]!)
        : await this.db.kysely
            .selectFrom('link_tags')
            .innerJoin('tags', 'tags.id', 'link_tags.tag_id')
            .select(['link_tags.link_id', 'tags.name'])
            .where(inIdList('link_tags.link_id', idList(linkIds, this.db.dialect), this.db.dialect))
            .execute()
    for (const row of rows) {
      const list = map.get(row.link_id) ?? []
      list.push(row.name)
      map.set(row.link_id, list)
    }
    return map
  }

  async delete(id: number): Promise<void> {
    await this.db.kysely.deleteFrom('links').where('id', '=', id).execute()
  }

  async pixelIdsOf(linkIds: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>()
    if (linkIds.length === 0) return map
    const rows =
      linkIds.length === 1
        ? await this.pixelIdsOfOne(linkIds[0]!)
        : await this.pixelIdsOfMany(idList(linkIds, this.db.dialect))
    for (const row of rows) {
      const list = map.get(row.link_id) ?? []
      list.push(row.pixel_id)
      map.set(row.link_id, list)
    }
    return map
  }

  async keysOf(filter: LinkRelationFilter): Promise<LinkKey[]> {
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
    if (filter.tagId !== undefined) {
      query = query
        .innerJoin('link_tags', 'link_tags.link_id', 'links.id')
        .where('link_tags.tag_id', '=', filter.tagId)
    }
    const rows = await query.execute()
    return rows.map((r) => ({ id: r.id, domainId: r.domain_id, alias: r.alias }))
  }

  rowsOf(filter: LinkRelationFilter): Promise<LinkRow[]> {
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
    const { tagId } = filter
    if (tagId !== undefined) {
      query = query.where('id', 'in', (eb) =>
        eb.selectFrom('link_tags').select('link_id').where('tag_id', '=', tagId),
      )
    }
    return query
      .orderBy('id')
      .execute()
      .then((rows) => rows.map(linkFromStored))
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

  async markTitleFetch(id: number, at: number): Promise<void> {
    await this.db.kysely
      .updateTable('links')
      .set({ title_fetch_at: at })
      .where('id', '=', id)
      .execute()
  }

  async finishTitleFetch(id: number, url: string): Promise<void> {
    await this.db.kysely
      .updateTable('links')
      .set({ title_fetch_at: null })
      .where('id', '=', id)
      .where('url', '=', url)
      .execute()
  }

  pendingTitleFetches(afterId: number, limit: number): Promise<{ id: number; url: string }[]> {
    return this.db.kysely
      .selectFrom('links')
      .select(['id', 'url'])
      .where('title_fetch_at', 'is not', null)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
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

/**
 * On PostgreSQL, a read of a user's number of links that sums more rows of changes than this
 * folds them into one (after the answer). Each create statement writes a row; folding every 64
 * keeps the sum a read of a few index entries.
 */
const FOLD_CHANGES_AFTER = 64

/** The most sets of columns whose update of a link is kept prepared (see updateOf). */
const UPDATE_SHAPES = 64
