/**
 * The dashboard's HTTP side, on the default domain only (`PUBLIC_URL`'s host; elsewhere these
 * paths are not found): sign-in and sign-out, the one-time password page, the home page and
 * `/dashboard/...` for signed-in people. Every POST carries a CSRF token (a 403 page without a
 * valid one, before anything changes); sign-in failures are limited per account and address, and
 * per address (sign-in-limits.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.js'
import { notFoundPage } from '../pages/index.js'
import { NotFoundError } from '../shared/errors.js'
import { sendError } from '../http/error-handler.js'
import { readCookie } from '../passwords/remembered.js'
import { ABSOLUTE_TIMEOUT_MS } from '../sessions/service.js'
import { DisabledUserError, passwordProblem } from '../users/accounts.js'
import type { UserRow } from '../db/types.js'
import { acceptAliases, LINK_LIST_ALIASES } from '../http/aliases.js'
import { pageRequest } from '../http/paging.js'
import { parseQuery } from '../http/body.js'
import { schemaErrors } from '../http/validation.js'
import { linkFilterOf } from '../links/list-query.js'
import { LinkListQuery } from '../links/schema.js'
import { assetRoutes } from './assets.js'
import { AnonymousCsrf, CSRF_COOKIE, sameToken } from './csrf.js'
import { linkStatsRoutes } from './link-stats-routes.js'
import { linkRoutes } from './link-routes.js'
import { tagNamesOf } from './link-route-helpers.js'
import { doneNotice } from './link-row-actions.js'
import { importPages } from './import-routes.js'
import { linksPage, linksQueryErrorPage } from './links-page.js'
import { overviewPage } from './overview-page.js'
import { overviewTags } from './overview-tags.js'
import { shortenedLink } from './shorten-routes.js'
import {
  csrfFailedPage,
  homePage,
  loginPage,
  passwordLinkDisabledPage,
  passwordLinkUnusablePage,
  setPasswordPage,
  SIGN_IN_FAILED,
  tooManySignInsPage,
} from './public-pages.js'
import { sectionOf, type Viewer } from './shell.js'
import { dashboardNotFoundPage } from './resource-pages.js'
import {
  dropEmptyFields,
  field,
  seeOther,
  send,
  type DashboardContext,
  type Form,
  type SignedIn,
  type DashboardServices,
} from './context.js'
import { resourceRoutes } from './resource-routes.js'
import { tagStatsRoutes } from './tag-stats-routes.js'
import { utmTemplateScreens } from './utm-template-routes.js'
import { accountRoutes } from './account-routes.js'
import { adminRoutes } from './admin-routes.js'
import { webhookRoutes } from './webhook-routes.js'
import { takeSignIn, type SignInLimits } from './sign-in-limits.js'
import type { AttemptLimiter } from '../limits/attempt-limiter.js'

export const SESSION_COOKIE = 'slink_session'
/** The largest form the dashboard accepts (sign-in, passwords); link forms take more. */
const FORM_LIMIT = 16 * 1024

export interface DashboardOptions {
  config: Config
  services: DashboardServices
  /** Signs the CSRF tokens of forms shown before sign-in. */
  csrfSecret: Buffer
  limits: SignInLimits
  /** QR images per user, counted with the API's. */
  qrLimit: AttemptLimiter
}

export function createDashboard(options: DashboardOptions) {
  const { config, services } = options
  const secure = config.publicUrl.protocol === 'https:'
  const defaultHost = config.publicUrl.hostname.toLowerCase()
  const anonymous = new AnonymousCsrf(options.csrfSecret)
  const attributes = `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`
  const sessionCookie = (id: string) =>
    `${SESSION_COOKIE}=${id}; Max-Age=${ABSOLUTE_TIMEOUT_MS / 1000}; ${attributes}`
  const clearSession = `${SESSION_COOKIE}=; Max-Age=0; ${attributes}`

  const onDefaultDomain = (request: FastifyRequest) =>
    request.hostname.toLowerCase() === defaultHost

  async function signedIn(request: FastifyRequest): Promise<SignedIn | null> {
    const session = await services.sessions.resume(
      readCookie(request.headers.cookie, SESSION_COOKIE),
    )
    if (!session) return null
    const user = await services.accounts.findUser(session.userId)
    if (!user || user.disabled !== 0) return null
    return { session, user }
  }

  const viewerOf = (who: SignedIn): Viewer => ({
    name: who.user.name,
    email: who.user.email,
    admin: who.user.role === 'admin',
    csrf: who.session.csrfSecret,
  })

  /** The pre-session CSRF cookie of this request (set on the reply when new) and its token. */
  function anonymousToken(request: FastifyRequest, reply: FastifyReply): string {
    const cookie = anonymous.cookieFor(readCookie(request.headers.cookie, CSRF_COOKIE))
    if (cookie.fresh) reply.header('set-cookie', `${CSRF_COOKIE}=${cookie.value}; ${attributes}`)
    return anonymous.token(cookie.value)
  }

  const anonymousCheck = (request: FastifyRequest) =>
    anonymous.check(readCookie(request.headers.cookie, CSRF_COOKIE), field(request.body, '_csrf'))

  async function home(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    return send(reply, 200, homePage({ signedIn: (await signedIn(request)) !== null }))
  }

  function routes(app: FastifyInstance): void {
    assetRoutes(app)

    app.register(async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: FORM_LIMIT },
        // Bracket names nest as in the API's bodies (`country[0][key]`, `pixel_ids[]`).
        (_request, body, done) => done(null, parseQuery(body as string)),
      )
      scope.addHook('onRequest', async (request, reply) => {
        if (!onDefaultDomain(request)) return send(reply, 404, notFoundPage())
      })

      scope.get('/login', { schema: { hide: true } }, async (request, reply) => {
        if (await signedIn(request)) return seeOther(reply, '/dashboard')
        const notice =
          (request.query as Form)['signed-out'] !== undefined ? 'You have signed out.' : null
        return send(reply, 200, loginPage({ csrf: anonymousToken(request, reply), notice }))
      })

      scope.post('/login', { schema: { hide: true } }, async (request, reply) => {
        if (!anonymousCheck(request)) return send(reply, 403, csrfFailedPage())
        const email = field(request.body, 'email').trim()
        const password = field(request.body, 'password')
        const checked = await takeSignIn(options.limits, email, request.ip)
        if (checked.wait > 0) {
          reply.header('retry-after', String(checked.wait))
          return send(reply, 429, tooManySignInsPage(checked.wait))
        }
        const user = await services.accounts.verify(email, password)
        if (!user) {
          const csrf = anonymousToken(request, reply)
          return send(reply, 422, loginPage({ csrf, email, error: SIGN_IN_FAILED }))
        }
        await checked.giveBack()
        // A new session id at every sign-in; an older session of this browser ends.
        const previous = readCookie(request.headers.cookie, SESSION_COOKIE)
        if (previous !== undefined) await services.sessions.end(previous)
        const session = await services.sessions.start(user.id)
        reply.header('set-cookie', sessionCookie(session.id))
        return seeOther(reply, '/dashboard')
      })

      scope.post('/logout', { schema: { hide: true } }, async (request, reply) => {
        const who = await signedIn(request)
        if (!who) return seeOther(reply, '/login')
        if (!sameToken(field(request.body, '_csrf'), who.session.csrfSecret)) {
          return send(reply, 403, csrfFailedPage())
        }
        await services.sessions.end(who.session.id)
        reply.header('set-cookie', clearSession)
        return seeOther(reply, '/login?signed-out')
      })

      scope.get<{ Params: { token: string } }>(
        '/password/:token',
        { schema: { hide: true } },
        async (request, reply) => {
          const user = await services.accounts.tokenUser(request.params.token)
          if (!user) return send(reply, 410, passwordLinkUnusablePage())
          if (user.disabled !== 0) return send(reply, 403, passwordLinkDisabledPage())
          const csrf = anonymousToken(request, reply)
          return send(
            reply,
            200,
            setPasswordPage({ token: request.params.token, csrf, email: user.email }),
          )
        },
      )

      scope.post<{ Params: { token: string } }>(
        '/password/:token',
        { schema: { hide: true } },
        async (request, reply) => {
          if (!anonymousCheck(request)) return send(reply, 403, csrfFailedPage())
          const { token } = request.params
          const user = await services.accounts.tokenUser(token)
          if (!user) return send(reply, 410, passwordLinkUnusablePage())
          if (user.disabled !== 0) return send(reply, 403, passwordLinkDisabledPage())
          const password = field(request.body, 'password')
          const errors: { password?: string; password_confirmation?: string } = {}
          const problem = passwordProblem(password)
          if (problem) errors.password = problem
          else if (field(request.body, 'password_confirmation') !== password)
            errors.password_confirmation = 'The passwords do not match.'
          if (errors.password || errors.password_confirmation) {
            const csrf = anonymousToken(request, reply)
            return send(reply, 422, setPasswordPage({ token, csrf, email: user.email, errors }))
          }
          let done: UserRow | null
          try {
            done = await services.accounts.useToken(token, password)
          } catch (error) {
            if (!(error instanceof DisabledUserError)) throw error
            return send(reply, 403, passwordLinkDisabledPage())
          }
          if (!done) return send(reply, 410, passwordLinkUnusablePage())
          const session = await services.sessions.start(done.id)
          reply.header('set-cookie', sessionCookie(session.id))
          return seeOther(reply, '/dashboard')
        },
      )

      scope.register(
        async (dashboard) => {
          const who = new WeakMap<FastifyRequest, SignedIn>()
          const signedInOf = (request: FastifyRequest): SignedIn => who.get(request)!
          dashboard.addHook('preHandler', async (request, reply) => {
            const found = await signedIn(request)
            if (!found) return seeOther(reply, '/login')
            if (
              request.method !== 'GET' &&
              request.method !== 'HEAD' &&
              !sameToken(field(request.body, '_csrf'), found.session.csrfSecret)
            ) {
              return send(reply, 403, csrfFailedPage())
            }
            who.set(request, found)
          })

          // A dashboard 404 is a dashboard page: the navigation and a way back (for the
          // signed-in; anyone else is sent to sign in, as everywhere under /dashboard).
          const missing = async (request: FastifyRequest, reply: FastifyReply) => {
            const found = who.get(request) ?? (await signedIn(request))
            if (!found) return seeOther(reply, '/login')
            return send(reply, 404, dashboardNotFoundPage(viewerOf(found), sectionOf(request.url)))
          }
          dashboard.setNotFoundHandler(missing)
          dashboard.setErrorHandler((error, request, reply) =>
            error instanceof NotFoundError
              ? missing(request, reply)
              : sendError(error, request, reply),
          )

          dashboard.get('/', { schema: { hide: true } }, async (request, reply) => {
            const me = signedInOf(request)
            const [tags, shortened] = await Promise.all([
              overviewTags(services, me.user.id, (request.query as Form).tag),
              shortenedLink(services, me.user.id, request.query),
            ])
            if (tags.asked !== null && 'unknown' in tags.asked)
              return send(reply, 404, overviewPage(viewerOf(me), null, shortened, tags))
            const data = await services.overview.overview(me.user.id, tags.asked ?? undefined)
            return send(reply, 200, overviewPage(viewerOf(me), data, shortened, tags))
          })

          const listAliases = acceptAliases('query', {
            ...LINK_LIST_ALIASES,
            names: { by: 'search_by', ...LINK_LIST_ALIASES.names },
          })
          dashboard.get(
            '/links',
            {
              // A GET form sends its empty fields too: an empty field is no filter.
              preValidation: [dropEmptyFields, listAliases],
              attachValidation: true,
              schema: { hide: true, querystring: LinkListQuery },
            },
            async (request, reply) => {
              const me = signedInOf(request)
              if (request.validationError) {
                const errors = schemaErrors(request)
                return send(reply, 422, linksQueryErrorPage(viewerOf(me), errors.messages))
              }
              const query = request.query as LinkListQuery
              const paging = pageRequest(query)
              const [found, spaces, tags, shortened] = await Promise.all([
                // The dashboard's one search box looks in alias, URL and title.
                services.overview.linkPage(
                  me.user.id,
                  linkFilterOf({ ...query, search_by: query.search_by ?? 'all' }),
                  paging,
                ),
                services.overview.spaces(me.user.id),
                tagNamesOf(services, me.user.id),
                shortenedLink(services, me.user.id, query),
              ])
              const search = new URLSearchParams()
              for (const [name, value] of Object.entries(query)) {
                if (name === 'page' || name === 'done' || name === 'shortened') continue
                if (value === undefined) continue
                search.set(name, String(value))
              }
              return send(
                reply,
                200,
                linksPage(viewerOf(me), {
                  query,
                  search,
                  records: found.records,
                  total: found.total,
                  capped: found.capped,
                  page: paging.page,
                  perPage: paging.perPage,
                  spaces,
                  tags,
                  now: services.stats.now(),
                  notice: doneNotice((query as Form).done),
                  shortened,
                }),
              )
            },
          )

          linkRoutes(dashboard, {
            config,
            services,
            user: (r) => signedInOf(r).user,
            viewer: (r) => viewerOf(signedInOf(r)),
          })

          linkStatsRoutes(
            dashboard,
            services,
            (r) => ({ userId: signedInOf(r).user.id, viewer: viewerOf(signedInOf(r)) }),
            options.qrLimit,
          )

          const context: DashboardContext = { config, services, signedInOf, viewerOf }
          resourceRoutes(dashboard, context)
          tagStatsRoutes(dashboard, context)
          utmTemplateScreens(dashboard, context)
          accountRoutes(dashboard, context, options.limits.passwordChanges)
          adminRoutes(dashboard, context)
          webhookRoutes(dashboard, context)

          await dashboard.register(importPages, {
            config,
            services,
            signedInOf,
            viewerOf,
            resume: signedIn,
          })
        },
        { prefix: '/dashboard' },
      )
    })
  }

  return { routes, home, onDefaultDomain }
}

export type Dashboard = ReturnType<typeof createDashboard>
