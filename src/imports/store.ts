/**
 * The import tables (see db/migrations/0006-imports.ts) and the lookups a batch of rows needs:
 * keys imported before, aliases in use, the owner's domains and spaces. `writeBatch` writes a
 * batch's links, keys, imported click totals and row results in one transaction.
 */
import { sql, type ExpressionBuilder } from 'kysely'
import type { Db } from '../db/connect.js'
import { tagKey } from '../tags/names.js'
import { SqlTagStore, type TagStore } from '../tags/store.js'
import type { LinkStore } from '../links/store.js'
import { linkFromStored, newLinkToStored } from '../links/stored-link.js'
import type { Page } from '../db/paging.js'
import type {
  Database,
  ImportRowResultRow,
  ImportRunRow,
  LinkRow,
  NewLinkRow,
} from '../db/types.js'
import type { PixelDraft } from './extra.js'
import { hash53 } from './hash.js'
import type { Outcome } from './planner.js'
import type { DayClicks } from './row.js'

export type ImportStatus = 'queued' | 'running' | 'done' | 'failed'
export type OutcomeCounts = Record<Outcome, number>

export interface NewImport {
  userId: number
  source: string
  origin: string
  dryRun: boolean
  onConflict: string
  now: number
}

/** A row's result as written (`link` set when a link is created). */
export interface RowResult {
  line: number
  outcome: Outcome
  sourceKey: string
  alias: string | null
  message: string | null
  link: {
    row: NewLinkRow
    space: string | null
    pixels: PixelDraft[]
    tags: string[]
    history: DayClicks[]
  } | null
}

const aliasKey = (domainId: number, alias: string) => `${domainId}/${alias}`
const pixelKey = (p: { type: string; value: string }) => `${p.type}\n${p.value}`

export class SqlImportStore {
  constructor(
    private readonly db: Db,
    private readonly links: Pick<LinkStore, 'aliasTaken'>,
  ) {
    this.tags = new SqlTagStore(db)
  }

  private readonly tags: TagStore

  async create(run: NewImport): Promise<ImportRunRow> {
    return this.db.kysely
      .insertInto('imports')
      .values({
        user_id: run.userId,
        source: run.source,
        origin: run.origin,
        dry_run: run.dryRun ? 1 : 0,
        on_conflict: run.onConflict,
        status: 'queued',
        total: 0,
        created: 0,
        renamed: 0,
        skipped: 0,
        duplicate: 0,
        invalid: 0,
        unknown_domain: 0,
        error: null,
        created_at: run.now,
        updated_at: run.now,
        finished_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  async progress(
    id: number,
    status: ImportStatus,
    counts: OutcomeCounts,
    now: number,
    error: string | null = null,
  ): Promise<void> {
    const finished = status === 'done' || status === 'failed'
    await this.db.kysely
      .updateTable('imports')
      .set({
        status,
        ...counts,
        total: Object.values(counts).reduce((a, b) => a + b, 0),
        error,
        updated_at: now,
        ...(finished ? { finished_at: now } : {}),
      })
      .where('id', '=', id)
      .execute()
  }

  /** The heartbeat of a running import: its process is alive (see `failAbandoned`). */
  async touch(id: number, now: number): Promise<void> {
    await this.db.kysely
      .updateTable('imports')
      .set({ updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .execute()
  }

  /**
   * Imports still `queued` or `running` whose process has not touched them since `before`:
   * that process is gone (killed, crashed, the machine restarted). They end `failed` with
   * `reason`; their counts stay those of the batches written. Returns how many.
   */
  async failAbandoned(before: number, now: number, reason: string): Promise<number> {
    const abandoned = (eb: ExpressionBuilder<Database, 'imports'>) =>
      eb.and([eb('status', 'in', ['queued', 'running']), eb('updated_at', '<', before)])
    // A read first: every process sweeps every few seconds, and on SQLite an UPDATE takes the
    // write lock even when nothing matches.
    const any = await this.db.kysely
      .selectFrom('imports')
      .select('id')
      .where(abandoned)
      .limit(1)
      .executeTakeFirst()
    if (!any) return 0
    const result = await this.db.kysely
      .updateTable('imports')
      .set({ status: 'failed', error: reason, updated_at: now, finished_at: now })
      .where(abandoned)
      .executeTakeFirst()
    return Number(result.numUpdatedRows)
  }

  /** How many of the user's imports are `queued` or `running`, up to the one numbered `upTo`. */
  async inFlight(userId: number, upTo?: number): Promise<number> {
    let query = this.db.kysely
      .selectFrom('imports')
      .select(sql<number>`count(*)`.as('n'))
      .where('user_id', '=', userId)
      .where('status', 'in', ['queued', 'running'])
    if (upTo !== undefined) query = query.where('id', '<=', upTo)
    const row = await query.executeTakeFirst()
    return Number(row?.n ?? 0)
  }

  /** Deletes an import that never ran (no rows, no keys). */
  async remove(id: number): Promise<void> {
    await this.db.kysely.deleteFrom('imports').where('id', '=', id).execute()
  }

  /** The user's latest imports, newest first. */
  latest(userId: number, limit: number): Promise<ImportRunRow[]> {
    return this.db.kysely
      .selectFrom('imports')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()
  }

  find(userId: number, id: number): Promise<ImportRunRow | undefined> {
    return this.db.kysely
      .selectFrom('imports')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst()
  }

  async rows(
    importId: number,
    offset: number,
    limit: number,
    outcome?: Outcome,
  ): Promise<Page<ImportRowResultRow>> {
    let base = this.db.kysely.selectFrom('import_rows').where('import_id', '=', importId)
    if (outcome !== undefined) base = base.where('outcome', '=', outcome)
    const counted = await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst()
    const rows = await base.selectAll().orderBy('line').limit(limit).offset(offset).execute()
    return { rows, total: Number(counted?.n ?? 0) }
  }

  /** The owner's usable domains (their own and the global ones) by host name. */
  async domainsOf(userId: number): Promise<Map<string, number>> {
    const rows = await this.db.kysely
      .selectFrom('domains')
      .select(['id', 'name'])
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('user_id', 'is', null)]))
      .execute()
    return new Map(rows.map((r) => [r.name.toLowerCase(), r.id]))
  }

  /** Which of `keys` this user imported before from `source`. */
  async knownKeys(userId: number, source: string, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set()
    const rows = await this.db.kysely
      .selectFrom('import_keys')
      .select('source_key')
      .where('user_id', '=', userId)
      .where('source', '=', source)
      .where('source_key', 'in', keys)
      .execute()
    return new Set(rows.map((r) => r.source_key))
  }

  /** Which of the (domain, alias) pairs are in use, as `domainId/alias`. */
  async takenAliases(pairs: { domainId: number; alias: string }[]): Promise<Set<string>> {
    const taken = new Set<string>()
    const byDomain = new Map<number, string[]>()
    for (const p of pairs) byDomain.set(p.domainId, [...(byDomain.get(p.domainId) ?? []), p.alias])
    for (const [domainId, aliases] of byDomain) {
      const rows = await this.db.kysely
        .selectFrom('links')
        .select('alias')
        .where('domain_id', '=', domainId)
        .where('alias', 'in', aliases)
        .execute()
      for (const r of rows) taken.add(aliasKey(domainId, r.alias))
    }
    return taken
  }

  /**
   * Which of `keys` this import has already reported as planned (any outcome but `invalid`):
   * a dry run's memory of its earlier batches. Found by hash, confirmed by the key as stored.
   */
  async plannedKeys(importId: number, keys: string[]): Promise<Set<string>> {
    const found = new Set<string>()
    const byHash = new Map<number, string[]>()
    for (const k of keys) byHash.set(hash53(k), [...(byHash.get(hash53(k)) ?? []), k])
    const hashes = [...byHash.keys()]
    for (let i = 0; i < hashes.length; i += 500) {
      const rows = await this.db.kysely
        .selectFrom('import_rows')
        .select(['key_hash', 'source_key'])
        .where('import_id', '=', importId)
        .where('key_hash', 'in', hashes.slice(i, i + 500))
        .where('outcome', '!=', 'invalid')
        .execute()
      for (const r of rows) {
        for (const k of byHash.get(Number(r.key_hash)) ?? []) {
          if (storedKey(k) === r.source_key) found.add(k)
        }
      }
    }
    return found
  }

  /** Which of the (domain, alias) pairs this import has already planned a link on. */
  async plannedAliases(
    importId: number,
    pairs: { domainId: number; alias: string }[],
  ): Promise<Set<string>> {
    const planned = new Set<string>()
    const byDomain = new Map<number, string[]>()
    for (const p of pairs) byDomain.set(p.domainId, [...(byDomain.get(p.domainId) ?? []), p.alias])
    for (const [domainId, aliases] of byDomain) {
      for (let i = 0; i < aliases.length; i += 500) {
        const rows = await this.db.kysely
          .selectFrom('import_rows')
          .select('alias')
          .where('import_id', '=', importId)
          .where('domain_id', '=', domainId)
          .where('alias', 'in', aliases.slice(i, i + 500))
          .execute()
        for (const r of rows) if (r.alias !== null) planned.add(aliasKey(domainId, r.alias))
      }
    }
    return planned
  }

  aliasTaken(domainId: number, alias: string): Promise<boolean> {
    return this.links.aliasTaken(domainId, alias)
  }

  /**
   * One batch, in one transaction: missing spaces, the links, their import keys, their click
   * totals as imported statistics, and every row's result. Returns the created links' ids by
   * line. Nothing of the batch stays if any part fails.
   */
  async writeBatch(
    importId: number,
    userId: number,
    source: string,
    results: RowResult[],
    today: string,
    now: number,
  ): Promise<Map<number, LinkRow>> {
    // Joins the transaction open around it (the one its events are raised in), if any.
    return this.db.transaction(async () => {
      const trx = this.db.kysely
      const ids = new Map<number, number>()
      const made = new Map<number, LinkRow>()
      const creating = results.filter((r) => r.link !== null)
      const wanted = [...new Set(creating.flatMap((r) => (r.link!.space ? [r.link!.space] : [])))]
      const spaces = new Map<string, number>()
      if (wanted.length > 0) {
        const found = await trx
          .selectFrom('spaces')
          .select(['id', 'name'])
          .where('user_id', '=', userId)
          .where('name', 'in', wanted)
          .execute()
        for (const s of found) spaces.set(s.name, s.id)
        for (const name of wanted.filter((n) => !spaces.has(n))) {
          const made = await trx
            .insertInto('spaces')
            .values({ user_id: userId, name, color: 1, created_at: now, updated_at: now })
            .returning('id')
            .executeTakeFirstOrThrow()
          spaces.set(name, made.id)
        }
      }
      // About 25 values a link: 400 links stay under every engine's parameter limit.
      for (let i = 0; i < creating.length; i += 400) {
        const chunk = creating.slice(i, i + 400)
        const inserted = await trx
          .insertInto('links')
          .values(
            chunk.map((r) => ({
              ...newLinkToStored(r.link!.row),
              space_id: r.link!.space ? (spaces.get(r.link!.space) ?? null) : null,
            })),
          )
          .returningAll()
          .execute()
        chunk.forEach((r, j) => {
          ids.set(r.line, inserted[j]!.id)
          made.set(r.line, linkFromStored(inserted[j]!))
        })
      }
      const keys = creating.map((r) => ({
        user_id: userId,
        source,
        source_key: r.sourceKey,
        link_id: ids.get(r.line)!,
      }))
      for (let i = 0; i < keys.length; i += 1000) {
        await trx
          .insertInto('import_keys')
          .values(keys.slice(i, i + 1000))
          .execute()
      }
      const stats = creating.flatMap((r) => {
        const link_id = ids.get(r.line)!
        return importedDays(r.link!.row.clicks ?? 0, r.link!.history, today).flatMap(
          ({ day, clicks }) => [
            { link_id, dimension: 'total', day, value: '', clicks },
            { link_id, dimension: 'imported', day, value: '', clicks },
          ],
        )
      })
      for (let i = 0; i < stats.length; i += 1000) {
        await trx
          .insertInto('click_stats')
          .values(stats.slice(i, i + 1000))
          .execute()
      }
      const pixels = await this.pixelsFor(userId, creating, now)
      const attached = creating.flatMap((r) =>
        r.link!.pixels.map((p) => ({
          link_id: ids.get(r.line)!,
          pixel_id: pixels.get(pixelKey(p))!,
        })),
      )
      for (let i = 0; i < attached.length; i += 1000) {
        await trx
          .insertInto('link_pixels')
          .values(attached.slice(i, i + 1000))
          .execute()
      }
      await this.tagLinks(userId, creating, ids, now)
      await insertRows(trx, importId, results, ids)
      return made
    })
  }

  /** The batch's links' tags: found, or made in the owner's account (color 1). */
  private async tagLinks(
    userId: number,
    creating: RowResult[],
    ids: Map<number, number>,
    now: number,
  ): Promise<void> {
    const names = new Map<string, string>()
    // The first spelling in the batch is the one a new tag takes.
    for (const r of creating)
      for (const name of r.link!.tags) if (!names.has(tagKey(name))) names.set(tagKey(name), name)
    if (names.size === 0) return
    const tagIds = new Map<string, number>()
    const wanted = [...names.values()]
    for (let i = 0; i < wanted.length; i += 1000) {
      const { tags } = await this.tags.ensure(userId, wanted.slice(i, i + 1000), now)
      for (const tag of tags) tagIds.set(tagKey(tag.name), tag.id)
    }
    const attached = creating.flatMap((r) =>
      r.link!.tags.map((name) => ({
        link_id: ids.get(r.line)!,
        tag_id: tagIds.get(tagKey(name))!,
      })),
    )
    for (let i = 0; i < attached.length; i += 1000) {
      await this.db.kysely
        .insertInto('link_tags')
        .values(attached.slice(i, i + 1000))
        .execute()
    }
  }

  /**
   * The owner's pixels the batch's links name, by type and value: found, or made (so running
   * the import again finds them instead of making them twice). A name the owner already uses
   * for another pixel gets `-2`, `-3`… (names are unique per user). Runs inside writeBatch's
   * transaction.
   */
  private async pixelsFor(
    userId: number,
    results: RowResult[],
    now: number,
  ): Promise<Map<string, number>> {
    const wanted = new Map<string, PixelDraft>()
    for (const r of results) for (const p of r.link!.pixels) wanted.set(pixelKey(p), p)
    const found = new Map<string, number>()
    if (wanted.size === 0) return found
    const owned = await this.db.kysely
      .selectFrom('pixels')
      .select(['id', 'name', 'type', 'value'])
      .where('user_id', '=', userId)
      .execute()
    const names = new Set(owned.map((p) => p.name))
    for (const p of owned) found.set(pixelKey(p), p.id)
    for (const [key, pixel] of wanted) {
      if (found.has(key)) continue
      let name = pixel.name
      for (let n = 2; names.has(name); n++) name = `${[...pixel.name].slice(0, 28).join('')}-${n}`
      names.add(name)
      const made = await this.db.kysely
        .insertInto('pixels')
        .values({
          user_id: userId,
          name,
          type: pixel.type,
          value: pixel.value,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      found.set(key, made.id)
    }
    return found
  }

  /** Row results of a dry run (nothing else is written). */
  async writeResults(importId: number, results: RowResult[]): Promise<void> {
    await insertRows(this.db.kysely, importId, results, new Map())
  }
}

/**
 * An imported total as per-day statistics: the days the source logged, and what the total has
 * beyond them on the import day (added to that day when the source logged it too).
 */
export function importedDays(total: number, history: DayClicks[], today: string): DayClicks[] {
  const days = new Map<string, number>()
  for (const d of history) if (d.clicks > 0) days.set(d.day, (days.get(d.day) ?? 0) + d.clicks)
  const logged = [...days.values()].reduce((a, b) => a + b, 0)
  if (total > logged) days.set(today, (days.get(today) ?? 0) + total - logged)
  return [...days].map(([day, clicks]) => ({ day, clicks }))
}

type Writer = Pick<Db['kysely'], 'insertInto'>

/** A source key as the report keeps it (the first 2,048 characters). */
const storedKey = (key: string) => key.slice(0, 2048)

async function insertRows(
  db: Writer,
  importId: number,
  results: RowResult[],
  ids: Map<number, number>,
): Promise<void> {
  const rows = results.map((r) => ({
    import_id: importId,
    line: r.line,
    outcome: r.outcome,
    source_key: storedKey(r.sourceKey),
    alias: r.alias === null ? null : r.alias.slice(0, 255),
    link_id: ids.get(r.line) ?? null,
    message: r.message === null ? null : r.message.slice(0, 1000),
    key_hash: hash53(r.sourceKey),
    domain_id: r.link?.row.domain_id ?? null,
  }))
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('import_rows')
      .values(rows.slice(i, i + 1000))
      .execute()
  }
}
