/**
 * Builds the HTTP application (API, OpenAPI document and docs page, health, and the place of
 * the redirect engine) without listening: tests inject requests into it, server.ts listens.
 */
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { LogController, type FastifyInstance } from 'fastify'
import type { Config, TrustProxy } from './config.js'
import { apiV1 } from './http/api.js'
import { BODY_LIMIT } from './http/body.js'
import { sendError } from './http/error-handler.js'
import { apiNotFound, trackRoutes } from './http/not-found.js'
import type { Services } from './services.js'
import { FORMATS } from './shared/formats.js'

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
  rateLimitRedis?: import('ioredis').Redis
}

/** A hop count becomes "trust the nearest n hops", which is what a number means to proxy-addr. */
function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    ajv: {
      customOptions: {
        allErrors: true,
        coerceTypes: 'array',
        removeAdditional: true,
        useDefaults: false,
        formats: FORMATS,
      },
    },
  })
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply))
  const routes = trackRoutes(app)
  app.decorate('apiRoutes', () => routes.list())

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'slink API',
        version: '1',
        description:
          'Links, pixels, spaces and domains of a self-hosted link shortener. ' +
          'Compatible with the phpShort v1 API.',
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
    transformSpecificationClone: true,
  })
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }))

  await app.register(apiV1, {
    prefix: '/api/v1',
    config,
    services: options.services,
    defaultDomainId: options.defaultDomainId,
    ...(options.rateLimitRedis ? { rateLimitRedis: options.rateLimitRedis } : {}),
  })

  const apiMissing = apiNotFound(routes)
  app.setNotFoundHandler((request, reply) => {
    if (
      request.url === '/api' ||
      request.url.startsWith('/api/') ||
      request.url.startsWith('/api?')
    ) {
      return apiMissing(request, reply)
    }
    // The redirect engine answers every other path; until a domain matches, nothing is here.
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found.')
  })
  return app
}
