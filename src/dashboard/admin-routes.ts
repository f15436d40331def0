/**
 * The Admin screen (administrators only; anyone else gets the 403 page, for GET and POST):
 * users, a new user (answered with a one-time set-password link), disable and enable, make
 * admin and make user, and a new password link. An administrator cannot disable or demote
 * themself, so there is always one left. The global domains are in resource-routes.tsx.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TObject } from 'typebox'
import { ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.js'
import { passwordLink } from '../users/accounts.js'
import { NewUserBody, USER_ROLES, type NewUserInput } from '../users/schema.js'
import { adminPage, newUserPage, passwordLinkPage } from './admin-pages.js'
import {
  field,
  formInput,
  formRoute,
  pathId,
  seeOther,
  send,
  typedForm,
  type DashboardContext,
  type Form,
  type SignedIn,
} from './context.js'
import { forbiddenPage } from './public-pages.js'
import { dashboardNotFoundPage } from './resource-pages.js'
import { makeAdminConfirmPage } from './admin-confirm-page.js'

/** The new-user form's schema, typed like every other form's (its role is a string enum). */
const NEW_USER: TObject = NewUserBody

const NOTICES: Record<string, string> = {
  disabled: 'The user was disabled and signed out everywhere; their API keys stop working.',
  enabled: 'The user was enabled.',
  role: 'The role was changed.',
}

export function adminRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const { accounts } = ctx.services

  /** The administrator making this request; anyone else is answered with the 403 page. */
  function admin(request: FastifyRequest, reply: FastifyReply): SignedIn | null {
    const who = ctx.signedInOf(request)
    if (who.user.role === 'admin') return who
    void send(reply, 403, forbiddenPage())
    return null
  }

  /** Runs an action on the user of the path: an unknown id is a 404, oneself a 403. */
  async function onUser(
    request: FastifyRequest,
    reply: FastifyReply,
    work: (me: SignedIn, id: number) => Promise<FastifyReply>,
  ): Promise<FastifyReply> {
    const me = admin(request, reply)
    if (!me) return reply
    try {
      const id = pathId(request)
      if (id === null) throw new NotFoundError()
      return await work(me, id)
    } catch (error) {
      if (error instanceof NotFoundError)
        return send(reply, 404, dashboardNotFoundPage(ctx.viewerOf(me), 'admin'))
      if (error instanceof ForbiddenError) return send(reply, 403, forbiddenPage())
      throw error
    }
  }

  app.get('/admin', { schema: { hide: true } }, async (request, reply) => {
    const me = admin(request, reply)
    if (!me) return reply
    const query = request.query as Form
    const notice = NOTICES[query.done ?? ''] ?? null
    const users = await accounts.listUsers()
    return send(
      reply,
      200,
      adminPage(ctx.viewerOf(me), {
        users,
        selfId: me.user.id,
        notice,
        clickLogDays: ctx.config.clickLogDays,
      }),
    )
  })

  app.get('/admin/users/new', { schema: { hide: true } }, async (request, reply) => {
    const me = admin(request, reply)
    if (!me) return reply
    return send(reply, 200, newUserPage(ctx.viewerOf(me), { values: {} }))
  })

  app.post('/admin/users', formRoute(NEW_USER), async (request, reply) => {
    const me = admin(request, reply)
    if (!me) return reply
    const { body, errors } = formInput<NewUserInput>(request)
    try {
      const user = await accounts.createUser(body, errors)
      const link = passwordLink(ctx.config.publicUrl, await accounts.issueToken(user.id))
      return send(reply, 200, passwordLinkPage(ctx.viewerOf(me), { user, link, created: true }))
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      const page = newUserPage(ctx.viewerOf(me), {
        values: typedForm(request),
        errors: error.fields,
      })
      return send(reply, 422, page)
    }
  })

  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(`/admin/users/:id/${action}`, { schema: { hide: true } }, async (request, reply) =>
      onUser(request, reply, async (me, id) => {
        await accounts.setDisabled(me.user.id, id, disabled)
        return seeOther(reply, `/dashboard/admin?done=${disabled ? 'disabled' : 'enabled'}`)
      }),
    )
  }

  app.post('/admin/users/:id/role', { schema: { hide: true } }, async (request, reply) =>
    onUser(request, reply, async (me, id) => {
      const role = USER_ROLES.find((r) => r === field(request.body, 'role'))
      if (!role) throw new NotFoundError()
      // Making an administrator is asked again first; the confirmation sends `confirm=1`.
      if (role === 'admin' && field(request.body, 'confirm') !== '1') {
        const user = await accounts.findUser(id)
        if (!user) throw new NotFoundError()
        return send(reply, 200, makeAdminConfirmPage(ctx.viewerOf(me), user))
      }
      await accounts.setRole(me.user.id, id, role)
      return seeOther(reply, '/dashboard/admin?done=role')
    }),
  )

  app.post('/admin/users/:id/reset-link', { schema: { hide: true } }, async (request, reply) =>
    onUser(request, reply, async (me, id) => {
      const user = await accounts.findUser(id)
      if (!user) throw new NotFoundError()
      const link = passwordLink(ctx.config.publicUrl, await accounts.issueToken(user.id))
      return send(reply, 200, passwordLinkPage(ctx.viewerOf(me), { user, link, created: false }))
    }),
  )
}
