/**
 * Imports for a user: an import record is made first (so the API can answer at once with it),
 * then run over the source's rows. The owner is fixed by the record: every link, space and key
 * a run writes belongs to that user, whatever the rows say.
 */
import type { ImportRowResultRow, ImportRunRow, LinkRow } from '../db/types.js'
import type { Page } from '../db/paging.js'
import type { DomainEvents } from '../events/bus.js'
import type { LinkRecord } from '../links/schema.js'
import { AppError, NotFoundError } from '../shared/errors.js'
import type { Metrics } from '../shared/metrics.js'
import type { OnConflict, Outcome } from './planner.js'
import type { SourceRow } from './row.js'
import { TOO_MANY_IMPORTS } from './caps.js'
import {
  ABANDONED_AFTER_MS,
  INTERRUPTED,
  runImport,
  type RunRequest,
  type RunSummary,
} from './run.js'
import type { SqlImportStore } from './store.js'

export interface ImportServiceDeps {
  store: SqlImportStore
  events: DomainEvents | null
  present: (userId: number, rows: LinkRow[]) => Promise<LinkRecord[]>
  timeZoneOf: (userId: number) => Promise<string>
  now: () => number
  metrics?: Metrics
}

export interface ImportOptions {
  source: string
  /** The file's name, or the API's base URL. */
  origin: string
  /** The idempotency scope (the source, with the base URL of an API). */
  scope: string
  dryRun: boolean
  onConflict: OnConflict
}

export class ImportService {
  private readonly background = new Set<Promise<unknown>>()
  private readonly stopping = new AbortController()

  constructor(private readonly deps: ImportServiceDeps) {}

  /** Keeps track of a run in the background, so that `idle` can wait for it. */
  track(run: Promise<unknown>): void {
    this.background.add(run)
    void run.finally(() => this.background.delete(run))
  }

  /** Resolves once every run in the background has ended. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background])
  }

  /** Aborted when the process stops: a source's request in flight ends with it. */
  get stopSignal(): AbortSignal {
    return this.stopping.signal
  }

  /**
   * Stops the runs of this process after their current batch: they end `failed` with the
   * restart reason (the process is stopping), and resolves once they have.
   */
  async interrupt(): Promise<void> {
    this.stopping.abort()
    await this.idle()
  }

  /**
   * Imports left `queued` or `running` by a process that is gone end `failed`, saying to run
   * them again. They are not resumed: an uploaded file is deleted with its request's run, and
   * a source API's key is never stored. Every process sweeps at start-up and then every few
   * seconds; a live run touches its record every few seconds, so only abandoned ones match,
   * whichever process (or machine) started them.
   */
  failAbandoned(): Promise<number> {
    const now = this.deps.now()
    return this.deps.store.failAbandoned(now - ABANDONED_AFTER_MS, now, INTERRUPTED)
  }

  /** Whether the user has `cap` imports `queued` or `running` already. */
  async busy(userId: number, cap: number): Promise<boolean> {
    return (await this.deps.store.inFlight(userId)) >= cap
  }

  /**
   * Makes the import record unless the user would then have more than `cap` imports in flight:
   * the record is made first and counted with those before it, so two requests at once never
   * both pass the last place. Throws a 429 when over.
   */
  async beginCapped(userId: number, options: ImportOptions, cap: number): Promise<ImportRunRow> {
    const record = await this.begin(userId, options)
    if ((await this.deps.store.inFlight(userId, record.id)) > cap) {
      await this.deps.store.remove(record.id)
      throw new AppError(429, TOO_MANY_IMPORTS)
    }
    return record
  }

  begin(userId: number, options: ImportOptions): Promise<ImportRunRow> {
    return this.deps.store.create({
      userId,
      source: options.source,
      origin: options.origin,
      dryRun: options.dryRun,
      onConflict: options.onConflict,
      now: this.deps.now(),
    })
  }

  async run(
    record: ImportRunRow,
    scope: string,
    rows: AsyncIterable<SourceRow>,
    defaultDomainId: number,
    extra: Pick<RunRequest, 'batchSize' | 'onBatch' | 'maxRows' | 'keptInvalid'> = {},
  ): Promise<RunSummary> {
    return runImport(
      {
        store: this.deps.store,
        events: this.deps.events,
        present: this.deps.present,
        now: this.deps.now,
        metrics: this.deps.metrics,
      },
      {
        importId: record.id,
        userId: record.user_id,
        scope,
        rows,
        dryRun: record.dry_run === 1,
        onConflict: record.on_conflict === 'rename' ? 'rename' : 'skip',
        timeZone: await this.deps.timeZoneOf(record.user_id),
        defaultDomainId,
        signal: this.stopping.signal,
        ...extra,
      },
    )
  }

  /** A failure before the first row (the source could not be opened). */
  async fail(record: ImportRunRow, message: string): Promise<void> {
    await this.deps.store.progress(
      record.id,
      'failed',
      { created: 0, renamed: 0, skipped: 0, duplicate: 0, invalid: 0, unknown_domain: 0 },
      this.deps.now(),
      message,
    )
  }

  /** The user's latest imports, newest first (the dashboard's list). */
  latest(userId: number, limit = 50): Promise<ImportRunRow[]> {
    return this.deps.store.latest(userId, limit)
  }

  async get(userId: number, id: number): Promise<ImportRunRow> {
    const found = await this.deps.store.find(userId, id)
    if (!found) throw new NotFoundError()
    return found
  }

  async rows(
    userId: number,
    id: number,
    page: number,
    perPage: number,
    outcome?: Outcome,
  ): Promise<Page<ImportRowResultRow>> {
    await this.get(userId, id)
    return this.deps.store.rows(id, (page - 1) * perPage, perPage, outcome)
  }
}
