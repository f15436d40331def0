/**
 * Builds the HTTP application (API, OpenAPI document and docs page, health, and the place of
 * the redirect engine) without listening: tests inject requests into it, server.ts listens.
 */
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import AjvCompiler from '@fastify/ajv-compiler'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import cluster from 'node:cluster'
import { createServer, type Server } from 'node:http'
import Fastify, { LogController, type FastifyInstance } from 'fastify'
import type { Redis } from 'ioredis'
import type { Config, TrustProxy } from '../config.js'
import { createDashboard } from '../dashboard/routes.js'
import { SIGN_IN_LIMITS, type SignInLimits } from '../dashboard/sign-in-limits.js'
import { apiV1 } from '../http/api/index.js'
import { BODY_LIMIT, parseQuery } from '../http/body.js'
import { strictlyCoercing } from '../http/coercion.js'
import { isApiPath, sendError, sendRawError } from '../http/error-handler.js'
import { apiNotFound, trackRoutes } from '../http/not-found.js'
import { readyRoute } from '../http/ready.js'
import { tlsRoutes } from '../http/tls-routes.js'
import { notFoundPage } from '../pages/index.js'
import { CountingAttemptLimiter } from '../limits/attempt-limiter.js'
import { QR_IMAGES_PER_MINUTE } from '../links/qr.js'
import { clientAddress, requestHostname } from '../edge/client.js'
import { fastPath, type Listener } from '../edge/fast-path.js'
import { proxyTrust, type ProxyTrust } from '../http/proxy-trust.js'
import { isDraining } from '../http/draining.js'
import { withSecurityHeaders } from '../http/security-headers.js'
import { redirectRoutes } from '../edge/short-url-routes.js'
import type { Redirects } from './redirects.js'
import { MemoryCounters, type Counters } from '../limits/window-counters.js'
import type { Services } from './services.js'
import { sharedSecret } from '../db/settings.js'
import { isDestinationUrl } from '../shared/destination-url.js'
import { FORMATS } from '../shared/formats.js'
import type { Metrics } from '../shared/metrics.js'
import { countRequests } from '../http/count-requests.js'
import { docsPolicy } from '../http/docs-policy.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route under `/api/` (for the OpenAPI completeness test). */
    apiRoutes(): { method: string; url: string }[]
  }
}

export interface AppOptions {
  config: Config
  services: Services
  defaultDomainId: () => number | null
  /** Where limits are counted (this process when absent; see src/limits/). */
  counters?: Counters
  /** The redirect engine; without it the app serves only the API (tests of the API alone). */
  redirects?: Redirects
  /** Sign-in limits of the dashboard (default: in this process, see SIGN_IN_LIMITS). */
  signInLimits?: SignInLimits
  /** The Redis connection when REDIS_URL is set: `/ready` asks it too. */
  redis?: Redis | null
  /** Where answers are counted for /metrics (nowhere when absent). */
  metrics?: Metrics
}

/**
 * The framework is given the same trust function as the fast path (http/proxy-trust.ts), so both
 * believe X-Forwarded-* from the same peers; a hop count means "trust the nearest n hops".
 */
function fastifyTrustProxy(trust: TrustProxy): false | ProxyTrust {
  return trust === false ? false : proxyTrust(trust)
}

/** The sign-in limits counted where the other limits are. */
export function signInLimits(counters: Counters): SignInLimits {
  const limiter = (name: string, max: number) =>
    new CountingAttemptLimiter(counters, name, max, SIGN_IN_LIMITS.windowMs)
  return {
    accounts: limiter('signin-accounts', SIGN_IN_LIMITS.accounts),
    addresses: limiter('signin-addresses', SIGN_IN_LIMITS.addresses),
    passwordChanges: limiter('password-changes', SIGN_IN_LIMITS.passwordChanges),
  }
}

const validatorFactories = new Map<string, ReturnType<typeof strictlyCoercing>>()

/** One validator compiler (and its cache) for the apps of this process that share these schemes. */
function validatorsFor(schemes: Config['appUrlSchemes']): ReturnType<typeof strictlyCoercing> {
  const key = [...schemes].sort().join(' ')
  let factory = validatorFactories.get(key)
  if (factory === undefined) {
    factory = strictlyCoercing(AjvCompiler())
    validatorFactories.set(key, factory)
  }
  return factory
}

const serializerFactory = SerializerSelector()
type Serializer = (doc: unknown) => string
const serializerPools = new Map<string, WeakMap<object, Serializer>>()

/**
 * The framework's own serializer compiler, each response schema compiled once for the apps of
 * this process (route schemas are module constants, the same objects in every app). As the
 * validator compiler pools its compilers, the compiled serializers are pooled by the shared
 * schemas and serializer options they were compiled with.
 */
export function sharedSerializers(
  ...args: Parameters<typeof serializerFactory>
): ReturnType<typeof serializerFactory> {
  const build = serializerFactory(...args)
  const key = JSON.stringify(args)
  const compiled = serializerPools.get(key) ?? new WeakMap<object, Serializer>()
  serializerPools.set(key, compiled)
  return (route) => {
    const schema = route.schema
    if (typeof schema !== 'object' || schema === null) return build(route)
    let serializer = compiled.get(schema)
    if (serializer === undefined) {
      serializer = build(route)
      compiled.set(schema, serializer)
    }
    return serializer
  }
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options
  const redirects = options.redirects
  const counters = options.counters ?? new MemoryCounters()
  const app = Fastify({
    // Short links are answered before the framework (edge/fast-path.ts); inject() in tests
    // goes straight to the framework. Every answer, whichever path writes it, carries the
    // headers of http/security-headers.ts.
    serverFactory: (handler: Listener) => {
      // While the service drains or stops (http/draining.ts; app.close()), requests still
      // arriving on open keep-alive connections are answered with `Connection: close`, so each
      // such connection ends after its answer.
      const answer = withSecurityHeaders(
        config,
        redirects
          ? fastPath(
              redirects.engine,
              redirects.recorder,
              clientAddress(config.trustProxy),
              handler,
              requestHostname(config.trustProxy),
              (error: unknown) => app.log.error({ err: error }, 'redirect failed'),
              options.metrics,
            )
          : handler,
      )
      const server: Server = createServer((request, response) => {
        if (!server.listening || isDraining(server)) response.setHeader('connection', 'close')
        answer(request, response)
      })
      server.keepAliveTimeout = 72_000
      return server
    },
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    routerOptions: {
      querystringParser: parseQuery,
      ignoreTrailingSlash: true,
      maxParamLength: 2048,
      onMaxParamLength: (path, _request, response) => sendRawError(response, path, 414),
    },
    frameworkErrors: (error, request, reply) => sendError(error, request, reply),
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    schemaController: {
      compilersFactory: {
        buildValidator: validatorsFor(config.appUrlSchemes),
        buildSerializer: sharedSerializers,
      },
    },
    ajv: {
      customOptions: {
        allErrors: true,
        // Values are coerced strictly before validation (http/coercion.ts), never by the validator.
        coerceTypes: false,
        removeAdditional: true,
        useDefaults: false,
        formats: {
          ...FORMATS,
          'destination-url': (value: string) => isDestinationUrl(value, config.appUrlSchemes),
        },
      },
    },
  })
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply))
  if (options.metrics) countRequests(app, options.metrics)
  const routes = trackRoutes(app)
  app.decorate('apiRoutes', () => routes.list())

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'slink API',
        version: '1',
        description: [
          'Links, pixels, spaces and domains of a self-hosted link shortener. Compatible with the',
          'phpShort v1 API: clients written for it work unchanged.',
          '',
          '- The key is the text after the last `Bearer ` (any case) of the Authorization header.',
          '- A store answers HTTP 201 with `"status":200` in the body, as phpShort does.',
          '- A request without a body (no Content-Length, or 0, and no Transfer-Encoding) has',
          '  none, whatever its Content-Type says.',
          '- On POST, PUT and PATCH the query string is input too, under the body (the body wins).',
          '- Query strings nest brackets like forms; a list or object given for a single value is',
          '  a 422 naming the field. Integers are decimal digits only (no exponent, fraction or hex).',
          '- phpShort 2.x names are accepted: `space` for `space_id`, `by` for `search_by`,',
          '  `space`/`domain` list filters, `sort=max|min` (clicks); stats `click`, `operating_system`.',
          '- A link created without `domain_id` or `domain` goes on the default domain.',
        ].join('\n'),
      },
      servers: [{ url: config.publicUrl.origin }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key.' } },
      },
      security: [{ bearer: [] }],
    },
  })
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    staticCSP: true,
    transformStaticCSP: docsPolicy(config.publicUrl),
    transformSpecificationClone: true,
  })
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  // In a cluster worker the answer names the worker (1 to N), so an operator or a test can
  // tell which process holds a connection.
  const worker = cluster.isWorker && cluster.worker ? { worker: cluster.worker.id } : {}
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok', ...worker }))
  readyRoute(app, options.services.db, options.redis ?? null)
  tlsRoutes(app, options.services.domains, config.tlsAskFrom)

  // One count of QR images per user, for the API and the dashboard together.
  const qrLimit = new CountingAttemptLimiter(counters, 'qr', QR_IMAGES_PER_MINUTE)
  await app.register(apiV1, {
    prefix: '/api/v1',
    config,
    services: options.services,
    defaultDomainId: options.defaultDomainId,
    counters,
    qrLimit,
  })

  const dashboard = createDashboard({
    config,
    services: options.services,
    csrfSecret: await sharedSecret(options.services.db, 'csrf_secret'),
    limits: options.signInLimits ?? signInLimits(counters),
    qrLimit,
  })
  dashboard.routes(app)

  if (options.redirects) {
    const { engine, cache, recorder, statsGate } = options.redirects
    const stats = { stats: options.services.stats, gate: statsGate }
    redirectRoutes(app, engine, cache, recorder, stats, {
      isDefaultDomain: dashboard.onDefaultDomain,
      home: dashboard.home,
    })
  } else {
    app.get('/', { schema: { hide: true } }, async (request, reply) => {
      if (dashboard.onDefaultDomain(request)) return dashboard.home(request, reply)
      const page = notFoundPage()
      return reply.code(404).headers(page.headers).send(page.html)
    })
  }

  const apiMissing = apiNotFound(routes)
  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(request.url)) return apiMissing(request, reply)
    const page = notFoundPage()
    return reply.code(404).headers(page.headers).send(page.html)
  })
  return app
}
