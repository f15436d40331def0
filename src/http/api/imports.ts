/**
 * `/api/v1/imports`: start an import (multipart: `source`, then a `file`, or the `url` and
 * `key` of the source's API; `dry_run`, `on_conflict`), answered at once with 202 and the
 * import record while it runs in the background; read it back with its counts, and its rows'
 * outcomes page by page. An API source is reached through the guarded outbound client: public
 * addresses only, unless IMPORT_ALLOWED_HOSTS names them.
 */
import type { FastifyInstance } from 'fastify'
import { userIdOf } from '../auth.js'
import { pageEnvelope } from '../paging.js'
import { schemaErrors } from '../validation.js'
import {
  DataEnvelope,
  ErrorBody,
  IdParams,
  PageEnvelope,
  ValidationErrorBody,
  type Static,
} from '../../shared/schema.js'
import { allowListPolicy, jsonFetch } from '../../imports/fetch.js'
import {
  ImportCreateBody,
  ImportRecord,
  ImportRowRecord,
  ImportRowsQuery,
  presentImport,
  presentImportRow,
} from '../../imports/schema.js'
import type { ImportService } from '../../imports/service.js'
import {
  KEPT_INVALID_ROWS,
  MAX_IMPORTS_IN_FLIGHT,
  MAX_ROWS_PER_IMPORT,
} from '../../imports/caps.js'
import { refuseWhenBusy, startImport } from './import-start.js'
import { registerUploadParser, takeUpload, UPLOAD_LIMIT } from './import-upload.js'

export interface ImportRouteOptions {
  imports: ImportService
  publicUrl: URL
  allowedHosts: readonly string[]
  defaultDomainId: () => number | null
  /** Called with each background run, so tests and shutdown can wait for it. */
  started?: (run: Promise<unknown>) => void
}

export async function importRoutes(app: FastifyInstance, options: ImportRouteOptions) {
  const { imports, publicUrl } = options
  registerUploadParser(app)
  const fetch = jsonFetch({
    policy: allowListPolicy(options.allowedHosts),
    signal: imports.stopSignal,
  })

  app.post<{ Body: ImportCreateBody }>('/imports', {
    // After the key (onRequest), before the body is read.
    preParsing: async (request, reply) => refuseWhenBusy(imports, userIdOf(request), reply),
    attachValidation: true,
    bodyLimit: UPLOAD_LIMIT + 1024 * 1024,
    schema: {
      tags: ['Imports'],
      summary: 'Start an import',
      description:
        'Links from another shortener (see docs/import.md). Send `multipart/form-data` with a ' +
        '`file` part for the file sources; the API sources need `url` and `key`. Answers at once ' +
        'with the import record; the import runs in the background. A file over 50 MiB is a 413. ' +
        `Caps: at most ${MAX_IMPORTS_IN_FLIGHT} imports queued or running per user, and as many ` +
        'start requests still being read (one more is a 429, before the body is read); at most ' +
        `${MAX_ROWS_PER_IMPORT} rows per import (the ` +
        'import then ends `failed`, the rows before done); the report keeps the first ' +
        `${KEPT_INVALID_ROWS} invalid rows (the counts stay exact). JSON files are read as they ` +
        'stream in, like CSV.',
      consumes: ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'],
      body: ImportCreateBody,
      response: {
        202: DataEnvelope(ImportRecord),
        401: ErrorBody,
        413: ErrorBody,
        422: ValidationErrorBody,
        429: ErrorBody,
      },
    },
    handler: async (request, reply) => {
      const upload = takeUpload(request)
      try {
        const record = await startImport(
          { imports, fetch, defaultDomainId: options.defaultDomainId, started: options.started },
          userIdOf(request),
          request.body ?? {},
          upload,
          schemaErrors(request),
        )
        // The file now belongs to the run.
        return reply.code(202).send({ data: presentImport(record), status: 200 })
      } catch (error) {
        upload?.remove()
        throw error
      }
    },
  })

  app.get<{ Params: Static<typeof IdParams> }>('/imports/:id', {
    schema: {
      tags: ['Imports'],
      summary: 'An import: its status and counts',
      params: IdParams,
      response: { 200: DataEnvelope(ImportRecord), 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
    },
    handler: async (request) => {
      const record = await imports.get(userIdOf(request), Number(request.params.id))
      return { data: presentImport(record), status: 200 }
    },
  })

  app.get<{ Params: Static<typeof IdParams>; Querystring: ImportRowsQuery }>('/imports/:id/rows', {
    attachValidation: true,
    schema: {
      tags: ['Imports'],
      summary: "An import's rows: each one's outcome, in source order",
      params: IdParams,
      querystring: ImportRowsQuery,
      response: {
        200: PageEnvelope(ImportRowRecord),
        401: ErrorBody,
        404: ErrorBody,
        422: ValidationErrorBody,
        429: ErrorBody,
      },
    },
    handler: async (request) => {
      const userId = userIdOf(request)
      const id = Number(request.params.id)
      const failure = request.validationError as { validationContext?: string } | undefined
      if (failure?.validationContext === 'params') await imports.get(userId, 0)
      await imports.get(userId, id)
      schemaErrors(request).throwIfAny()
      const query = request.query
      const paging = { page: query.page ?? 1, perPage: query.per_page ?? 10, sort: 'asc' as const }
      const page = await imports.rows(userId, id, paging.page, paging.perPage, query.outcome)
      return pageEnvelope(request, publicUrl, page, paging, presentImportRow)
    },
  })
}
