/**
 * Starting an import from a request (the API's `POST /api/v1/imports` and the dashboard's
 * form): the checks that depend on the source, then the record, then the run in the
 * background. Both callers validate the body with the same schema (`ImportCreateBody`) first.
 */
import { createReadStream } from 'node:fs'
import type { FastifyReply } from 'fastify'
import type { ImportRunRow } from '../../db/types.js'
import {
  KEPT_INVALID_ROWS,
  MAX_IMPORTS_IN_FLIGHT,
  MAX_ROWS_PER_IMPORT,
  TOO_MANY_IMPORTS,
  TOO_MANY_ROWS,
} from '../../imports/caps.js'
import { AppError, type FieldErrors } from '../../shared/errors.js'
import { isHttpUrl } from '../../shared/formats.js'
import type { JsonFetch } from '../../imports/sources/apis.js'
import type { SourceRow } from '../../imports/row.js'
import type { ImportCreateBody } from '../../imports/schema.js'
import type { ImportService } from '../../imports/service.js'
import {
  API_SOURCES,
  FILE_SOURCES,
  isApiSource,
  isFileSource,
} from '../../imports/sources/index.js'
import type { Upload } from './import-upload.js'

export interface StartDeps {
  imports: ImportService
  /** The guarded fetch of API sources (public addresses, or IMPORT_ALLOWED_HOSTS). */
  fetch: JsonFetch
  defaultDomainId: () => number | null
  /** Called with each background run, so tests and shutdown can wait for it. */
  started?: (run: Promise<unknown>) => void
}

/** Start requests of each user this process is reading or handling now (uploads included). */
const starting = new Map<number, number>()

/**
 * Refuses (429) before the body is read when the user already has the most imports in flight,
 * or as many start requests in this process still being read or handled (so uploads that have
 * no record yet are bounded too); `startImport` checks again once the record is made. The
 * request is counted before the check, and until its response closes.
 */
export async function refuseWhenBusy(
  imports: ImportService,
  userId: number,
  reply: FastifyReply,
): Promise<void> {
  const count = (starting.get(userId) ?? 0) + 1
  starting.set(userId, count)
  reply.raw.once('close', () => {
    const left = (starting.get(userId) ?? 1) - 1
    if (left > 0) starting.set(userId, left)
    else starting.delete(userId)
  })
  if (count > MAX_IMPORTS_IN_FLIGHT || (await imports.busy(userId, MAX_IMPORTS_IN_FLIGHT)))
    throw new AppError(429, TOO_MANY_IMPORTS)
}

/**
 * Starts the import and returns its record (`queued`). Throws the 422 of `errors` with every
 * problem found, or a 429 past the imports in flight a user may have (see caps.ts). On success
 * the uploaded file belongs to the run (removed when it ends); on a throw it is still the
 * caller's.
 */
export async function startImport(
  deps: StartDeps,
  userId: number,
  body: ImportCreateBody,
  upload: Upload | undefined,
  errors: FieldErrors,
): Promise<ImportRunRow> {
  const { imports } = deps
  const source = body.source
  if (source === undefined && !errors.has('source'))
    errors.add('source', 'The source field is required.')
  if (source !== undefined && isFileSource(source) && upload === undefined)
    errors.add('file', `The file field is required when source is ${source}.`)
  if (source !== undefined && isApiSource(source)) {
    if (body.url === undefined && !errors.has('url'))
      errors.add('url', `The url field is required when source is ${source}.`)
    else if (body.url !== undefined && !isHttpUrl(body.url))
      errors.add('url', 'The url field must be a valid URL.')
    if (body.key === undefined && !errors.has('key'))
      errors.add('key', `The key field is required when source is ${source}.`)
  }
  errors.throwIfAny()
  const domainId = deps.defaultDomainId()
  if (domainId === null) throw new AppError(503, 'Service Unavailable.')
  let rows: AsyncIterable<SourceRow>
  let scope: string
  let origin: string
  if (isApiSource(source!)) {
    const base = new URL(body.url!)
    origin = base.toString()
    scope = `${source} ${base.origin}${base.pathname.replace(/\/+$/, '')}`
    rows = API_SOURCES[source]({ baseUrl: origin, key: body.key!, fetch: deps.fetch })
  } else if (isFileSource(source!)) {
    origin = upload!.name.slice(0, 255)
    scope = source
    rows = FILE_SOURCES[source](createReadStream(upload!.path) as AsyncIterable<Buffer>)
  } else {
    throw new AppError(422, 'The selected source is invalid.')
  }
  const record = await imports.beginCapped(
    userId,
    {
      source: source!,
      origin,
      scope,
      dryRun: body.dry_run === 1,
      onConflict: body.on_conflict ?? 'skip',
    },
    MAX_IMPORTS_IN_FLIGHT,
  )
  const run = imports
    .run(record, scope, rows, domainId, {
      maxRows: { rows: MAX_ROWS_PER_IMPORT, message: TOO_MANY_ROWS },
      keptInvalid: KEPT_INVALID_ROWS,
    })
    .catch(() => imports.fail(record, 'Server Error.'))
    .finally(() => upload?.remove())
  deps.started?.(run)
  return record
}
