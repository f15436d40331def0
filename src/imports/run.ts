/**
 * Runs one import: reads the source's rows in batches, plans each batch (lookups for the whole
 * batch first), and writes it in one transaction, or for a dry run writes only the row results.
 *
 * Atomicity: a batch is all or nothing, so no link is ever written without its key, its
 * statistics and its result. A fatal error (the source failing half-way, the database going
 * away) stops the run: it ends `failed` with its error, and the rows of the batches written so
 * far are reported with their outcomes; running the same import again creates only what is
 * missing (the written rows come back as `duplicate`). A whole-import transaction was not
 * chosen: a million rows would hold SQLite's only write lock, and with it every click, for
 * the whole run.
 */
import type { LinkRow, NewLinkRow } from '../db/types.js'
import type { DomainEvents } from '../events/bus.js'
import type { LinkRecord } from '../links/schema.js'
import { hashPassword, randomString } from '../shared/secrets.js'
import {
  OUTCOMES,
  planRow,
  sourceKeyOf,
  type LinkDraft,
  type OnConflict,
  type Plan,
} from './planner.js'
import type { SourceRow } from './row.js'
import type { ImportStatus, OutcomeCounts, RowResult, SqlImportStore } from './store.js'
import type { Metrics } from '../shared/metrics.js'

export interface RunDeps {
  store: SqlImportStore
  /** Each created link raises `link.created` in its batch's transaction (webhooks, caches). */
  events: DomainEvents | null
  present: (userId: number, rows: LinkRow[]) => Promise<LinkRecord[]>
  now: () => number
  /** Where written rows are counted by outcome. */
  metrics?: Metrics
}

export interface RunRequest {
  importId: number
  userId: number
  /** The idempotency scope: the source's name, with the base URL for an API source. */
  scope: string
  rows: AsyncIterable<SourceRow>
  dryRun: boolean
  onConflict: OnConflict
  timeZone: string
  defaultDomainId: number
  batchSize?: number
  /** Called after each batch with the rows done so far. */
  onBatch?: (done: number) => void
  /** Aborted when the process stops: the run ends `failed` after its current batch. */
  signal?: AbortSignal
  /** Rows read at most: one more ends the run `failed` with `tooManyRows` (the rows before it done). */
  maxRows?: { rows: number; message: string }
  /** Invalid rows written to the report at most (the counts include every one). */
  keptInvalid?: number
}

/**
 * A running import touches its record this often, so that another process can tell a live run
 * from one whose process was killed (`ABANDONED_AFTER_MS` without a touch).
 */
export const HEARTBEAT_MS = 5_000
export const ABANDONED_AFTER_MS = 20_000
export const INTERRUPTED =
  'interrupted by a restart; run it again — rows already imported are not duplicated'

export interface RunSummary {
  status: Extract<ImportStatus, 'done' | 'failed'>
  counts: OutcomeCounts
  error: string | null
}

export function zeroCounts(): OutcomeCounts {
  return Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as OutcomeCounts
}

const aliasKey = (domainId: number, alias: string) => `${domainId}/${alias}`

export async function runImport(deps: RunDeps, request: RunRequest): Promise<RunSummary> {
  const { store } = deps
  const counts = zeroCounts()
  const batchSize = request.batchSize ?? 1000
  const domains = await store.domainsOf(request.userId)
  // What this batch has planned so far. Earlier batches are in the database: a real run's as
  // links and keys, a dry run's as its row results (looked up there, so that a dry run's
  // memory stays flat however long the file).
  const plannedKeys = new Set<string>()
  const plannedAliases = new Set<string>()
  const dry = request.dryRun
  let done = 0
  let invalidKept = 0
  // The report's rows: every row, but invalid ones only up to `keptInvalid`.
  const reported = (results: RowResult[]) => {
    const cap = request.keptInvalid
    if (cap === undefined) return results
    return results.filter((r) => r.outcome !== 'invalid' || invalidKept++ < cap)
  }

  const flush = async (batch: SourceRow[]) => {
    const keys = [...new Set(batch.map(sourceKeyOf))]
    const known = await store.knownKeys(request.userId, request.scope, keys)
    if (dry) for (const k of await store.plannedKeys(request.importId, keys)) known.add(k)
    const pairs = batch.flatMap((r) => {
      if (r.alias === null) return []
      const domainId =
        r.domain === null ? request.defaultDomainId : domains.get(r.domain.toLowerCase())
      return domainId === undefined ? [] : [{ domainId, alias: r.alias }]
    })
    const taken = await store.takenAliases(pairs)
    if (dry) for (const a of await store.plannedAliases(request.importId, pairs)) taken.add(a)
    const asked = new Set(pairs.map((p) => aliasKey(p.domainId, p.alias)))
    const plans: Plan[] = []
    for (const row of batch) {
      const plan = await planRow(row, {
        onConflict: request.onConflict,
        timeZone: request.timeZone,
        defaultDomainId: request.defaultDomainId,
        domainId: (name) => domains.get(name.toLowerCase()),
        keyKnown: async (key) => known.has(key) || plannedKeys.has(key),
        aliasTaken: async (domainId, alias) => {
          const key = aliasKey(domainId, alias)
          if (taken.has(key) || plannedAliases.has(key)) return true
          if (asked.has(key)) return false
          if (dry && (await store.plannedAliases(request.importId, [{ domainId, alias }])).size > 0)
            return true
          return store.aliasTaken(domainId, alias)
        },
      })
      plans.push(plan)
      if (plan.outcome !== 'invalid') plannedKeys.add(plan.sourceKey)
      if (plan.link) plannedAliases.add(aliasKey(plan.link.domainId, plan.link.alias))
    }
    const results = await Promise.all(plans.map((p) => resultOf(p, request.userId, deps.now())))
    const kept = reported(results)
    if (request.dryRun) {
      await store.writeResults(request.importId, kept)
    } else {
      const now = deps.now()
      const write = () =>
        store.writeBatch(
          request.importId,
          request.userId,
          request.scope,
          kept,
          new Date(now).toISOString().slice(0, 10),
          now,
        )
      const events = deps.events
      if (events === null) await write()
      else
        await events.commit(async (raise) => {
          const made = [...(await write()).values()]
          const records = await deps.present(request.userId, made)
          if (made.length > 0)
            await raise(
              ...made.map((link, i) => ({
                type: 'link.created' as const,
                userId: request.userId,
                at: now,
                data: { link: records[i]! },
                links: [{ id: link.id, domainId: link.domain_id, alias: link.alias }],
              })),
            )
        })
    }
    // Written: the database answers for them from now on.
    plannedKeys.clear()
    plannedAliases.clear()
    for (const p of plans) {
      counts[p.outcome]++
      deps.metrics?.importRows(p.outcome, 1)
    }
    done += batch.length
    await store.progress(request.importId, 'running', counts, deps.now())
    request.onBatch?.(done)
  }

  const heartbeat = setInterval(() => {
    store.touch(request.importId, deps.now()).catch(() => {})
  }, HEARTBEAT_MS)
  heartbeat.unref()
  try {
    await store.progress(request.importId, 'running', counts, deps.now())
    let batch: SourceRow[] = []
    let read = 0
    for await (const row of request.rows) {
      if (request.signal?.aborted) throw new Error(INTERRUPTED)
      if (request.maxRows !== undefined && ++read > request.maxRows.rows) {
        if (batch.length > 0) await flush(batch)
        throw new Error(request.maxRows.message)
      }
      batch.push(row)
      if (batch.length >= batchSize) {
        await flush(batch)
        batch = []
      }
    }
    if (batch.length > 0) await flush(batch)
    await store.progress(request.importId, 'done', counts, deps.now())
    return { status: 'done', counts, error: null }
  } catch (error) {
    // A stop also ends a source's request in flight, which fails with an error of its own.
    const message = request.signal?.aborted
      ? INTERRUPTED
      : ((error as Error)?.message?.split('\n')[0] ?? String(error))
    await store.progress(request.importId, 'failed', counts, deps.now(), message).catch(() => {})
    return { status: 'failed', counts, error: message }
  } finally {
    clearInterval(heartbeat)
  }
}

async function resultOf(plan: Plan, userId: number, now: number): Promise<RowResult> {
  const draft = plan.link
  let link: RowResult['link'] = null
  if (draft) {
    const row: NewLinkRow = {
      user_id: userId,
      domain_id: draft.domainId,
      alias: draft.alias,
      url: draft.url,
      title: draft.title,
      title_locked: draft.title === null ? 0 : 1,
      target_type: draft.extra.targetType,
      country_target: draft.extra.country,
      platform_target: draft.extra.platform,
      language_target: draft.extra.language,
      rotation_target: draft.extra.rotation,
      disabled: draft.disabled ? 1 : 0,
      privacy: draft.extra.privacy,
      password: await passwordOf(draft),
      expiration_url: draft.extra.expirationUrl,
      expiration_clicks: draft.expirationClicks,
      ends_at: draft.endsAt,
      clicks: draft.clicks,
      created_at: draft.createdAt ?? now,
      updated_at: now,
    }
    link = {
      row,
      space: draft.space,
      pixels: draft.extra.pixels,
      tags: draft.tags,
      history: draft.history,
    }
  }
  return {
    line: plan.line,
    outcome: plan.outcome,
    sourceKey: plan.sourceKey,
    alias: plan.alias,
    message: plan.message,
    link,
  }
}

/**
 * The password in clear is hashed; a source's password that it did not give (phpShort's API
 * says only that one is set) becomes a random one nobody knows, so the link stays closed.
 */
async function passwordOf(draft: LinkDraft): Promise<string | null> {
  if (draft.password !== null) return hashPassword(draft.password)
  if (draft.extra.lockedPassword) return hashPassword(randomString(32))
  return null
}
