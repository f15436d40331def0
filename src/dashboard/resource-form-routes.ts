/**
 * The routes every named resource of the dashboard shares, given its view, its API schemas and
 * the service calls the API makes: `GET base` (the list, with the API list's parameters and
 * messages), `GET base/new` and `POST base` (create), `GET base/:id/edit` and `POST base/:id`
 * (update), `GET base/:id/delete` and `POST base/:id/delete` (delete after a confirmation).
 * Forms are validated by the API's own body schemas (with `rejectNulls` and `schemaErrors`, as
 * the API does), then by the service, so every failing field is reported at once with the
 * API's message. An id that is not the viewer's is a 404 page; a row the viewer may only see
 * (a global domain) is a 403 page for its edit and delete.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TObject } from 'typebox'
import type { Page, PageRequest } from '../db/paging.js'
import { acceptAliases } from '../http/aliases.js'
import { pageRequest, type ListQueryBase } from '../http/paging.js'
import { schemaErrors } from '../http/validation.js'
import { FieldErrors, ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.js'
import {
  dropEmptyFields,
  formInput,
  formRoute,
  pathId,
  seeOther,
  send,
  typedForm,
  type DashboardContext,
  type SignedIn,
} from './context.js'
import { forbiddenPage } from './public-pages.js'
import {
  dashboardNotFoundPage,
  resourceDeletePage,
  resourceFormPage,
  resourceListPage,
  resourceQueryErrorPage,
  type ResourceView,
} from './resource-pages.js'

export interface ResourceScreens<
  Row extends { id: number },
  Query extends ListQueryBase,
  Create,
  Update,
> {
  view: ResourceView<Row>
  listQuery: TObject
  createBody: TObject
  updateBody: TObject
  /** Values of a new row's form. */
  blank: Record<string, string>
  /** Who may use these screens (everyone signed in when absent); others get a 403 page. */
  allowed?(who: SignedIn): boolean
  list(who: SignedIn, query: Query, page: PageRequest): Promise<Page<Row>>
  get(who: SignedIn, id: number): Promise<Row>
  create(who: SignedIn, body: Create, errors: FieldErrors): Promise<Row>
  update(who: SignedIn, id: number, body: Update, errors: FieldErrors): Promise<Row>
  delete(who: SignedIn, id: number): Promise<Row>
}

const DONE: Record<string, string> = {
  created: 'created',
  updated: 'saved',
  deleted: 'deleted',
}

export function registerResourceScreens<
  Row extends { id: number },
  Query extends ListQueryBase,
  Create,
  Update,
>(
  app: FastifyInstance,
  ctx: DashboardContext,
  screens: ResourceScreens<Row, Query, Create, Update>,
): void {
  const { view } = screens
  const base = view.base.replace(/^\/dashboard/, '')
  const capital = view.object.charAt(0).toUpperCase() + view.object.slice(1)

  /** The signed-in person if they may use these screens; else the 403 page is sent. */
  function allowed(request: FastifyRequest, reply: FastifyReply): SignedIn | null {
    const who = ctx.signedInOf(request)
    if (screens.allowed && !screens.allowed(who)) {
      void send(reply, 403, forbiddenPage())
      return null
    }
    return who
  }

  /** Runs a read or change of one row, answering its typed errors with the dashboard's pages. */
  async function withRow(
    request: FastifyRequest,
    reply: FastifyReply,
    who: SignedIn,
    work: (id: number) => Promise<FastifyReply>,
  ): Promise<FastifyReply> {
    const viewer = ctx.viewerOf(who)
    const id = pathId(request)
    if (id === null) return send(reply, 404, dashboardNotFoundPage(viewer, view.section))
    try {
      return await work(id)
    } catch (error) {
      if (error instanceof NotFoundError)
        return send(reply, 404, dashboardNotFoundPage(viewer, view.section))
      if (error instanceof ForbiddenError) return send(reply, 403, forbiddenPage())
      throw error
    }
  }

  function failed(
    reply: FastifyReply,
    who: SignedIn,
    request: FastifyRequest,
    error: ValidationError,
    id?: number,
  ): FastifyReply {
    const values = typedForm(request)
    const heading = id === undefined ? `New ${view.object}` : `Edit ${view.object}`
    return send(
      reply,
      422,
      resourceFormPage(ctx.viewerOf(who), view, {
        ...(id === undefined ? {} : { id }),
        heading,
        values: values as Record<string, string>,
        errors: error.fields,
      }),
    )
  }

  app.get(
    base,
    {
      preValidation: [dropEmptyFields, acceptAliases('query', { names: { by: 'search_by' } })],
      attachValidation: true,
      schema: { hide: true, querystring: screens.listQuery },
    },
    async (request, reply) => {
      const who = allowed(request, reply)
      if (!who) return reply
      const viewer = ctx.viewerOf(who)
      if (request.validationError) {
        const errors = schemaErrors(request)
        return send(reply, 422, resourceQueryErrorPage(viewer, view, errors.messages))
      }
      const query = request.query as Query & Record<string, string | number | undefined>
      const done = DONE[String(query.done ?? '')]
      const shown = { ...query }
      Reflect.deleteProperty(shown, 'done')
      const paging = pageRequest(query)
      const found = await screens.list(who, query, paging)
      return send(
        reply,
        200,
        resourceListPage(viewer, view, {
          query: shown,
          records: found.rows,
          total: found.total,
          page: paging.page,
          perPage: paging.perPage,
          notice: done ? `${capital} ${done}.` : null,
        }),
      )
    },
  )

  app.get(`${base}/new`, { schema: { hide: true } }, async (request, reply) => {
    const who = allowed(request, reply)
    if (!who) return reply
    const page = resourceFormPage(ctx.viewerOf(who), view, {
      heading: `New ${view.object}`,
      values: screens.blank,
    })
    return send(reply, 200, page)
  })

  app.post(base, formRoute(screens.createBody), async (request, reply) => {
    const who = allowed(request, reply)
    if (!who) return reply
    const { body, errors } = formInput<Create>(request)
    try {
      await screens.create(who, body, errors)
    } catch (error) {
      if (error instanceof ValidationError) return failed(reply, who, request, error)
      throw error
    }
    return seeOther(reply, `${view.base}?done=created`)
  })

  app.get(`${base}/:id/edit`, { schema: { hide: true } }, async (request, reply) => {
    const who = allowed(request, reply)
    if (!who) return reply
    return withRow(request, reply, who, async (id) => {
      const row = await screens.get(who, id)
      if (view.readOnly?.(row)) throw new ForbiddenError()
      const page = resourceFormPage(ctx.viewerOf(who), view, {
        id,
        heading: `Edit ${view.object}`,
        values: view.valuesOf(row),
      })
      return send(reply, 200, page)
    })
  })

  app.post(`${base}/:id`, formRoute(screens.updateBody), async (request, reply) => {
    const who = allowed(request, reply)
    if (!who) return reply
    return withRow(request, reply, who, async (id) => {
      const { body, errors } = formInput<Update>(request)
      try {
        await screens.update(who, id, body, errors)
      } catch (error) {
        if (error instanceof ValidationError) return failed(reply, who, request, error, id)
        throw error
      }
      return seeOther(reply, `${view.base}?done=updated`)
    })
  })

  app.get(`${base}/:id/delete`, { schema: { hide: true } }, async (request, reply) => {
    const who = allowed(request, reply)
    if (!who) return reply
    return withRow(request, reply, who, async (id) => {
      const row = await screens.get(who, id)
      if (view.readOnly?.(row)) throw new ForbiddenError()
      return send(reply, 200, resourceDeletePage(ctx.viewerOf(who), view, row))
    })
  })

  app.post(`${base}/:id/delete`, { schema: { hide: true } }, async (request, reply) => {
    const who = allowed(request, reply)
    if (!who) return reply
    return withRow(request, reply, who, async (id) => {
      await screens.delete(who, id)
      return seeOther(reply, `${view.base}?done=deleted`)
    })
  })
}
