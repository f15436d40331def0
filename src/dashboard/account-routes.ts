/**
 * The Account screen: profile (name, email, time zone), password (its current-password check
 * limited per user), and the person's API keys (made with a name and shown in full once, on the
 * answer page; revoked after a confirmation).
 * Forms are checked by schemas in users/schema.ts the way the API checks its bodies.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AttemptLimiter } from '../limits/attempt-limiter.js'
import { waitText } from '../pages/notice-pages.js'
import { NotFoundError, ValidationError } from '../shared/errors.js'
import { passwordProblem } from '../users/accounts.js'
import { ApiKeyBody, ProfileBody, type ApiKeyInput, type ProfileInput } from '../users/schema.js'
import { UserInputError } from '../users/service.js'
import {
  accountPage,
  newKeyPage,
  revokeKeyPage,
  type AccountPageInput,
  type PasswordChangeErrors,
} from './account-pages.js'
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
import { dashboardNotFoundPage } from './resource-pages.js'

/** Every time zone the runtime knows, UTC first (some runtimes leave it out of the list). */
const TIME_ZONES: readonly string[] = (() => {
  const zones = Intl.supportedValuesOf('timeZone')
  return zones.includes('UTC') ? zones : ['UTC', ...zones]
})()

const NOTICES: Record<string, string> = {
  changed: 'Your password was changed.',
  profile: 'Your profile was saved.',
  // The same whether the new address was free or another account's (docs/dashboard.md).
  email:
    'Your profile was saved. A new email is used only if no other account has it: the email shown here is the one you sign in with.',
  revoked: 'The API key was revoked.',
}

/**
 * `checks`: the limit of wrong current passwords on the password form, per user (see
 * sign-in-limits.ts).
 */
export function accountRoutes(
  app: FastifyInstance,
  ctx: DashboardContext,
  checks: AttemptLimiter,
): void {
  const { services } = ctx

  async function page(
    reply: FastifyReply,
    status: number,
    who: SignedIn,
    input: Omit<AccountPageInput, 'keys' | 'timeZones' | 'clickLogDays' | 'origin'>,
  ): Promise<FastifyReply> {
    const keys = await services.users.listKeys(who.user.id)
    const rendered = accountPage(ctx.viewerOf(who), who.user, {
      ...input,
      keys,
      timeZones: TIME_ZONES,
      clickLogDays: ctx.config.clickLogDays,
      // The address this page was opened at, on the configured scheme (a proxy may end TLS).
      origin: `${ctx.config.publicUrl.protocol}//${reply.request.host}`,
    })
    return send(reply, status, rendered)
  }

  app.get('/account', { schema: { hide: true } }, async (request, reply) => {
    const query = request.query as Form
    const notice = Object.keys(NOTICES).find((name) => query[name] !== undefined)
    return page(reply, 200, ctx.signedInOf(request), {
      notice: notice === undefined ? null : NOTICES[notice]!,
    })
  })

  app.post('/account/profile', formRoute(ProfileBody), async (request, reply) => {
    const me = ctx.signedInOf(request)
    const { body, errors } = formInput<ProfileInput>(request)
    // Decided from what was asked, not from what was done: a taken address answers as a free one.
    const newEmail =
      body.email !== undefined && body.email.trim().toLowerCase() !== me.user.email.toLowerCase()
    try {
      await services.accounts.updateProfile(me.user.id, body, errors)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      return page(reply, 422, me, { profile: { values: typedForm(request), errors: error.fields } })
    }
    return seeOther(reply, newEmail ? '/dashboard/account?email' : '/dashboard/account?profile')
  })

  app.post('/account/password', { schema: { hide: true } }, async (request, reply) => {
    const me = ctx.signedInOf(request)
    const current = field(request.body, 'current_password')
    const password = field(request.body, 'password')
    const errors: PasswordChangeErrors = {}
    // Counted before it is checked; a right one is given back.
    const key = `user:${me.user.id}`
    const wait = await checks.take(key)
    if (wait > 0) {
      reply.header('retry-after', String(wait))
      const message = `Too many wrong current passwords. Try again in ${waitText(wait)}.`
      return page(reply, 429, me, { errors: { current_password: message } })
    }
    if ((await services.accounts.verify(me.user.email, current)) === null)
      errors.current_password = 'The current password is not correct.'
    else await checks.giveBack(key)
    const problem = passwordProblem(password)
    if (problem) errors.password = problem
    else if (field(request.body, 'password_confirmation') !== password)
      errors.password_confirmation = 'The passwords do not match.'
    if (Object.keys(errors).length > 0) return page(reply, 422, me, { errors })
    try {
      await services.accounts.setPassword(me.user.id, password, me.session.id)
    } catch (error) {
      if (!(error instanceof UserInputError)) throw error
      return page(reply, 422, me, { errors: { password: error.message } })
    }
    return seeOther(reply, '/dashboard/account?changed')
  })

  app.post('/account/keys', formRoute(ApiKeyBody), async (request, reply) => {
    const me = ctx.signedInOf(request)
    const { body, errors } = formInput<ApiKeyInput>(request)
    let key: string
    try {
      key = await services.users.createNamedKey(me.user.id, body, errors)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      return page(reply, 422, me, { newKey: { values: typedForm(request), errors: error.fields } })
    }
    // The answer itself shows the key; it is stored only as a hash, so never again.
    return send(reply, 200, newKeyPage(ctx.viewerOf(me), body.key_name!.trim(), key))
  })

  async function ownKey(
    request: FastifyRequest,
    reply: FastifyReply,
    work: (id: number) => Promise<FastifyReply>,
  ) {
    const me = ctx.signedInOf(request)
    const id = pathId(request)
    try {
      if (id === null) throw new NotFoundError()
      return await work(id)
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error
      return send(reply, 404, dashboardNotFoundPage(ctx.viewerOf(me), 'account'))
    }
  }

  app.get('/account/keys/:id/revoke', { schema: { hide: true } }, async (request, reply) =>
    ownKey(request, reply, async (id) => {
      const me = ctx.signedInOf(request)
      const key = (await services.users.listKeys(me.user.id)).find((k) => k.id === id)
      if (!key) throw new NotFoundError()
      return send(reply, 200, revokeKeyPage(ctx.viewerOf(me), key))
    }),
  )

  app.post('/account/keys/:id/revoke', { schema: { hide: true } }, async (request, reply) =>
    ownKey(request, reply, async (id) => {
      await services.users.revokeOwnKey(ctx.signedInOf(request).user.id, id)
      return seeOther(reply, '/dashboard/account?revoked')
    }),
  )
}
