/**
 * Moves the links that changed into SQLite's search indexes (migration 0011): the writes only
 * record which links changed, in `links_search_pending`; this indexes them a batch at a time,
 * each batch in one transaction and its FTS5 merge work after it in small steps, so no write
 * waits for FTS5's segments and merges, and no request waits long for a merge.
 *
 * Who runs it: the process that wrote, shortly after its writes (`nudge`, one run per
 * `debounceMs` however many writes), and every process at start and every `sweepMs`, for the
 * writes of other processes (cluster workers, the CLI, imports). In a server it runs in the
 * click-writing thread (`runElsewhere`, threads/click-writer.ts), off the request thread.
 * Two processes may run it at once: a batch takes the write lock first (`BEGIN IMMEDIATE`), so
 * each pending link is taken by one of them. A search never waits for it: pending links are
 * candidates of every search.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Db } from '../db/connect.js'
import type { Database } from '../db/types.js'
import { requestsWaiting, writeTransaction } from '../db/write-lock.js'
import {
  aliasSuffixes,
  prepare,
  REBUILD,
  type Current,
  type Pending,
  type Statements,
} from './search-index-sql.js'

/**
 * A backlog this large comes from a bulk load (`slink import`, a database filled by SQL): it is
 * rebuilt in one pass before serving, about 13 s a million links, instead of a batch at a time
 * (about 0.3 ms a link) while every search takes the whole backlog as candidates.
 */
export const REBUILD_AT = 50_000

/**
 * How long after a write of this process its batch runs: the writes of that time share the
 * batches. Under a stream of creates, 500 ms fill batches of 100 links where 100 ms gave about
 * 47 (a commit and a merge each), and a create took about 7 % less of the request thread
 * (docs/performance.md, "Fuller index batches"). Searches meanwhile find the pending links
 * all the same; they compare them one by one.
 */
const DEBOUNCE_MS = 500

export interface SearchIndexerOptions {
  /** How long after a write of this process its batch runs (DEBOUNCE_MS). */
  debounceMs?: number
  /** How often pending links of other processes are looked for. */
  sweepMs?: number
  /** Links per batch (per transaction): 100 keep a batch to about 30 ms. */
  batch?: number
  /**
   * FTS5 merge work after each batch, in pages (see docs/performance.md for the measure), done
   * `MERGE_SLICE_PAGES` at a time, each slice in a transaction of its own.
   */
  mergePages?: number
}

/**
 * The pages of one merge step. A step holds the thread while it runs: 16 pages at once took up
 * to 67 ms in a server under a stream of updates, stalling every request meanwhile (redirects
 * included); slices of 4, with the event loop turning between them, took at most a few ms.
 */
const MERGE_SLICE_PAGES = 4

/**
 * While links are still pending after a batch (a full batch), its merge work is owed instead of
 * done: the next batch goes first, and what is owed is done once the backlog is indexed. Under a
 * stream of creates, the merges after every batch held SQLite's write lock about as long as the
 * batches themselves, and the indexer fell behind (docs/performance.md, "Twelfth round"). At
 * most this many pages are owed: however long the backlog lasts, FTS5 meanwhile keeps each level
 * of its index under 16 segments by itself (its `crisismerge`), and this is what brings the
 * levels down afterwards.
 */
export const MERGE_DEBT_MAX = 1024

export class SearchIndexer {
  // The root builder, taken outside any transaction: a timer set while a unit of work is open
  // would otherwise see that (finished) transaction through `db.kysely`.
  private readonly root: Kysely<Database>
  private statements: Statements | null = null
  private debounce: NodeJS.Timeout | null = null
  private sweep: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null
  private again = false
  private stopped = false
  private onError: (error: unknown) => void = () => {}
  /** Set by `runElsewhere`: what a nudge calls instead of indexing in this thread. */
  private elsewhere: (() => void) | null = null
  /** Merge work owed by the batches taken while a backlog lasted, in pages (MERGE_DEBT_MAX). */
  private owed = 0

  constructor(
    private readonly db: Db,
    private readonly options: SearchIndexerOptions = {},
  ) {
    this.root = db.kysely
  }

  /** A write of this process has committed: index it soon (close writes share a batch). */
  nudge(): void {
    if (this.stopped || this.debounce) return
    this.debounce = setTimeout(() => {
      this.debounce = null
      if (this.elsewhere) this.elsewhere()
      else this.kick()
    }, this.options.debounceMs ?? DEBOUNCE_MS)
    this.debounce.unref()
  }

  /**
   * The batches run in another thread from now on (a server's click-writing thread, which has a
   * connection of its own): a nudge, once its debounce is over, calls `indexThere`, and `start`
   * indexes nothing here. The request thread then spends no time on the indexes.
   */
  runElsewhere(indexThere: () => void): void {
    this.elsewhere = indexThere
  }

  /** Indexes what is pending now (a nudge from another thread, already debounced there). */
  indexNow(): void {
    this.kick()
  }

  /** Indexes what is pending now, then looks again every `sweepMs`; a failed batch is retried then. */
  start(onError: (error: unknown) => void): void {
    this.onError = onError
    if (this.elsewhere) return
    this.kick()
    this.sweep = setInterval(() => this.kick(), this.options.sweepMs ?? 5000)
    this.sweep.unref()
  }

  /** Stops the timers and waits for the batch in hand (a few milliseconds). */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.debounce) clearTimeout(this.debounce)
    if (this.sweep) clearInterval(this.sweep)
    this.debounce = this.sweep = null
    await this.running
  }

  /** Indexes every pending link; resolves with how many were indexed. */
  async drain(): Promise<number> {
    let total = 0
    for (;;) {
      const done = await this.runBatch()
      total += done
      if (done === 0 || this.stopped) return total
      // Requests waiting for the database go between two batches.
      await nextTurn()
    }
  }

  /** Rebuilds both indexes from the links when `REBUILD_AT` or more are pending; says how many. */
  async rebuildIfBehind(threshold = REBUILD_AT): Promise<number> {
    const handle = this.db.sqlite
    if (!handle) return 0
    return this.root.connection().execute(() =>
      writeTransaction(handle, () => {
        const { n } = handle.prepare('SELECT count(*) AS n FROM links_search_pending').get() as {
          n: number
        }
        if (n < threshold) return 0
        handle.exec(REBUILD)
        return n
      }),
    )
  }

  private kick(): void {
    if (this.stopped) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = this.drain()
      .then(
        () => {},
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        this.running = null
        if (this.again) {
          this.again = false
          this.kick()
        }
      })
  }

  /**
   * One batch, holding the process's SQLite connection (no other query runs meanwhile), then
   * the merge work owed once no link is left pending (MERGE_DEBT_MAX).
   */
  private async runBatch(): Promise<number> {
    const handle = this.db.sqlite
    if (!handle?.open) return 0
    const statements = (this.statements ??= prepare(handle))
    const size = this.options.batch ?? 100
    const { indexed, cut } = await this.root.connection().execute(async () => {
      // The batch's pages (a few hundred: suffixes land all over their B-tree) are copied from
      // the WAL into the database by the click-writing thread's checkpoints in a server (see
      // threads/click-writer.ts), off this thread: a checkpoint syncs the file.
      // The write lock is waited for on timers (db/write-lock.ts), not in SQLite's busy
      // handler: another cluster worker's writes must not stall this process.
      return writeTransaction(handle, () => this.indexBatch(handle, statements, size))
    })
    if (indexed > 0) {
      this.owed = Math.min(this.owed + (this.options.mergePages ?? 16), MERGE_DEBT_MAX)
    }
    // A full batch, or one cut short, leaves links pending: the next batch goes first.
    if (indexed < size && !cut) await this.merge(handle, statements)
    return indexed
  }

  /**
   * The merge work owed, a slice at a time, each holding the connection only while it runs:
   * requests are served between the slices.
   */
  private async merge(handle: SQLite.Database, s: Statements): Promise<void> {
    while (this.owed > 0 && !this.stopped) {
      const slice = Math.min(this.owed, MERGE_SLICE_PAGES)
      await nextTurn()
      if (!handle.open) return
      await this.root.connection().execute(() => writeTransaction(handle, () => s.merge.run(slice)))
      this.owed -= slice
    }
  }

  /**
   * Indexes up to `size` pending links in the open transaction. When the request thread starts
   * waiting for the write lock meanwhile, the batch ends after the link in hand (`cut`), so its
   * group of writes waits for one link and the commit instead of the rest of the batch. Under a
   * stream of creates, 3 to 5 % more creates a second (docs/performance.md, "Fifteenth round").
   */
  private indexBatch(
    handle: SQLite.Database,
    s: Statements,
    size: number,
  ): { indexed: number; cut: boolean } {
    const pending = s.take.all(size) as Pending[]
    let indexed = 0
    for (const { link_id: id, indexed_alias: before } of pending) {
      const link = s.current.get(id) as Current | undefined
      // A link new since the last batch (no indexed alias) is not in the index yet.
      if (before !== null) s.ftsDelete.run(id)
      if (link) s.ftsInsert.run(id, link.url, link.title)
      const after = link?.alias ?? null
      if (before !== after) {
        if (before !== null) for (const suffix of aliasSuffixes(before)) s.drop.run(suffix, id)
        if (after !== null) for (const suffix of aliasSuffixes(after)) s.add.run(suffix, id)
      }
      s.done.run(id)
      indexed++
      if (indexed < pending.length && requestsWaiting(handle)) return { indexed, cut: true }
    }
    return { indexed, cut: false }
  }
}
