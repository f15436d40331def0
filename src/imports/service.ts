/**
 * Imports for a user: an import record is made first (so the API can answer at once with it),
 * then run over the source's rows. The owner is fixed by the record: every link, space and key
 * a run writes belongs to that user, whatever the rows say.
 */
import type { ImportRowResultRow, ImportRunRow, LinkRow } from '../db/types.js'
import type { Page } from '../db/paging.js'
import type { DomainEvents } from '../events/bus.js'
import type { LinkRecord } from '../links/schema.js'
import { NotFoundError } from '../shared/errors.js'
import type { OnConflict, Outcome } from './planner.js'
import type { SourceRow } from './row.js'
import { runImport, type RunSummary } from './run.js'
import type { SqlImportStore } from './store.js'

export interface ImportServiceDeps {
  store: SqlImportStore
  events: DomainEvents | null
  present: (userId: number, rows: LinkRow[]) => Promise<LinkRecord[]>
  timeZoneOf: (userId: number) => Promise<string>
  now: () => number
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
    extra: { batchSize?: number; onBatch?: (done: number) => void } = {},
  ): Promise<RunSummary> {
    return runImport(
      {
        store: this.deps.store,
        events: this.deps.events,
        present: this.deps.present,
        now: this.deps.now,
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
