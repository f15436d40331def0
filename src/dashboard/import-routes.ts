/**
 * The dashboard's imports and export, registered in the signed-in `/dashboard` scope (its
 * preHandler has already checked the session and, on a POST, the CSRF token):
 * - `GET /imports`: the user's imports and the form that starts one;
 * - `POST /imports`: multipart (the only dashboard route that reads one: a file part goes to a
 *   temporary file as it arrives, at most 50 MiB), checked with the API's schema and messages;
 *   303 to the import's page, or the form again with 422. Nothing of the body is read before
 *   the session is found (else 303 to the sign-in page), and the file part is refused (403)
 *   unless the form's CSRF token came before it;
 * - `GET /imports/{id}`: its status and counts, its rows paged and filtered by outcome;
 * - `GET /links/export`: the API's export with the links list's filters, through the session.
 * Another user's import, like a missing one, is a 404 page.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.js'
import { acceptAliases } from '../http/aliases.js'
import { sendError } from '../http/error-handler.js'
import { schemaErrors } from '../http/validation.js'
import { allowListPolicy, jsonFetch } from '../imports/fetch.js'
import { ImportCreateBody, ImportRowsQuery } from '../imports/schema.js'
import { refuseWhenBusy, startImport } from '../http/api/import-start.js'
import { registerUploadParser, takeUpload, UPLOAD_LIMIT } from '../http/api/import-upload.js'
import { sendLinksExport } from '../http/api/link-export.js'
import { LINK_LIST_ALIASES } from '../http/aliases.js'
import { LinkExportQuery } from '../http/api/links.js'
import type { RenderedPage } from '../pages/layout.js'
import type { Session } from '../sessions/service.js'
import { AppError, NotFoundError, ValidationError } from '../shared/errors.js'
import { dashboardNotFoundPage } from './resource-pages.js'
import type { UserRow } from '../db/types.js'
import {
  importPage,
  importQueryErrorPage,
  importsPage,
  importStatusFragment,
} from './import-pages.js'
import { linksQueryErrorPage } from './links-page.js'
import { seeOther, type DashboardServices } from './context.js'
import { sameToken } from './csrf.js'
import { csrfFailedPage } from './public-pages.js'
import type { Viewer } from './shell.js'

export interface ImportPagesOptions {
  config: Config
  services: DashboardServices
  /** Who is signed in on a request (set by the scope's preHandler). */
  signedInOf: (request: FastifyRequest) => SignedIn
  viewerOf: (who: SignedIn) => Viewer
  /** Who is signed in, from the session cookie alone (before the body is read). */
  resume: (request: FastifyRequest) => Promise<SignedIn | null>
}

interface SignedIn {
  session: Session
  user: UserRow
}

function send(reply: FastifyReply, status: number, page: RenderedPage): FastifyReply {
  return reply.code(status).headers(page.headers).send(page.html)
}

/** The file part came without the form's CSRF token before it. */
class CsrfRefused extends AppError {
  constructor() {
    super(403, 'Forbidden.')
  }
}

/** `/dashboard/imports/12` → 12; anything else is not an import. */
const idOf = (raw: string) => (/^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null)

export async function importPages(app: FastifyInstance, options: ImportPagesOptions) {
  const { services, config } = options
  const userOf = (request: FastifyRequest) => options.signedInOf(request).user
  const viewer = (request: FastifyRequest) => options.viewerOf(options.signedInOf(request))
  // The session of a POST, found before its body is read.
  const early = new WeakMap<FastifyRequest, SignedIn>()
  registerUploadParser(app, {
    beforeFile: (request, fields) => {
      const who = early.get(request)
      if (!who || !sameToken(fields._csrf, who.session.csrfSecret)) throw new CsrfRefused()
    },
  })
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof CsrfRefused) return send(reply, 403, csrfFailedPage())
    const who = early.get(request)
    // Too many imports in flight: the form again, saying so.
    if (error instanceof AppError && error.status === 429 && who) {
      const imports = await services.imports.latest(who.user.id)
      const errors = { source: [error.message] }
      return send(reply, 429, importsPage(options.viewerOf(who), { imports, errors }))
    }
    return sendError(error, request, reply)
  })
  const fetch = jsonFetch({
    policy: allowListPolicy(config.importAllowedHosts),
    signal: services.imports.stopSignal,
  })
  let defaultDomainId: number | null = null
  const defaultDomain = async () =>
    (defaultDomainId ??= (await services.domains.ensureDefault(config.publicUrl)).id)

  app.get('/imports', { schema: { hide: true } }, async (request, reply) => {
    const imports = await services.imports.latest(userOf(request).id)
    return send(reply, 200, importsPage(viewer(request), { imports }))
  })

  app.post<{ Body: ImportCreateBody }>(
    '/imports',
    {
      onRequest: async (request, reply) => {
        const who = await options.resume(request)
        if (!who) return seeOther(reply, '/login')
        early.set(request, who)
      },
      preParsing: async (request, reply) => {
        const who = early.get(request)
        if (who) await refuseWhenBusy(services.imports, who.user.id, reply)
      },
      attachValidation: true,
      bodyLimit: UPLOAD_LIMIT + 1024 * 1024,
      schema: { hide: true, body: ImportCreateBody },
    },
    async (request, reply) => {
      const user = userOf(request)
      const upload = takeUpload(request)
      const body = request.body ?? {}
      try {
        const domainId = await defaultDomain()
        const record = await startImport(
          {
            imports: services.imports,
            fetch,
            defaultDomainId: () => domainId,
            started: (run) => services.imports.track(run),
          },
          user.id,
          body,
          upload,
          schemaErrors(request),
        )
        return reply
          .code(303)
          .header('cache-control', 'no-store')
          .header('location', `/dashboard/imports/${record.id}`)
          .send()
      } catch (error) {
        upload?.remove()
        if (!(error instanceof AppError) || error.status !== 422) throw error
        // A ValidationError names its fields; the one other 422 is the source itself.
        const errors = error instanceof ValidationError ? error.fields : { source: [error.message] }
        const raw = (request.body ?? {}) as Record<string, unknown>
        const text = (name: string) => (typeof raw[name] === 'string' ? raw[name] : undefined)
        return send(
          reply,
          422,
          importsPage(viewer(request), {
            imports: await services.imports.latest(user.id),
            values: {
              source: text('source'),
              url: text('url'),
              dry_run: text('dry_run') === '1' || raw.dry_run === 1,
              on_conflict: text('on_conflict'),
            },
            errors,
          }),
        )
      }
    },
  )

  app.get<{ Params: { id: string }; Querystring: ImportRowsQuery }>(
    '/imports/:id',
    {
      // A GET form sends its empty fields too: an empty outcome is no filter.
      preValidation: async (request) => {
        const query = request.query as Record<string, unknown>
        for (const [name, value] of Object.entries(query))
          if (value === '') Reflect.deleteProperty(query, name)
      },
      attachValidation: true,
      schema: { hide: true, querystring: ImportRowsQuery },
    },
    async (request, reply) => {
      const user = userOf(request)
      const id = idOf(request.params.id)
      const record = id === null ? undefined : await found(services.imports.get(user.id, id))
      if (record === undefined)
        return send(reply, 404, dashboardNotFoundPage(viewer(request), 'imports'))
      const shown = viewer(request)
      if (request.validationError) {
        return send(
          reply,
          422,
          importQueryErrorPage(shown, record.id, schemaErrors(request).messages),
        )
      }
      const page = request.query.page ?? 1
      if (request.headers['hx-request'] === 'true') {
        const self = request.url
        return reply
          .code(200)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('vary', 'HX-Request')
          .send(importStatusFragment(record, self))
      }
      const perPage = request.query.per_page ?? 25
      const outcome = request.query.outcome
      const rows = await services.imports.rows(user.id, record.id, page, perPage, outcome)
      return send(
        reply,
        200,
        importPage(shown, { record, rows: rows.rows, total: rows.total, page, perPage, outcome }),
      )
    },
  )

  const listAliases = acceptAliases('query', {
    ...LINK_LIST_ALIASES,
    names: { by: 'search_by', ...LINK_LIST_ALIASES.names },
  })
  app.get<{ Querystring: LinkExportQuery }>(
    '/links/export',
    {
      preValidation: [
        async (request) => {
          const query = request.query as Record<string, unknown>
          for (const [name, value] of Object.entries(query))
            if (value === '') Reflect.deleteProperty(query, name)
        },
        listAliases,
      ],
      attachValidation: true,
      schema: { hide: true, querystring: LinkExportQuery },
    },
    async (request, reply) => {
      if (request.validationError) {
        const errors = schemaErrors(request)
        return send(reply, 422, linksQueryErrorPage(viewer(request), errors.messages))
      }
      const userId = userOf(request).id
      return sendLinksExport(reply, services.links, services.presenter, userId, request.query)
    },
  )
}

/** The record, or undefined when it is missing or another user's. */
async function found<T>(lookup: Promise<T>): Promise<T | undefined> {
  try {
    return await lookup
  } catch (error) {
    if (error instanceof NotFoundError) return undefined
    throw error
  }
}
