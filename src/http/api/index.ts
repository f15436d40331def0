/**
 * The `/api/v1` scope: body parsers, the per-key rate limit, bearer authentication, and the
 * routes of every resource.
 */
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import { accountRoutes } from '../account/routes.js'
import type { Config } from '../config.js'
import { API_LIMIT_WINDOW_MS, countersStore, limitKeyOf } from '../limits/rate-limit-store.js'
import { RequestLimit } from '../limits/request-limit.js'
import { MemoryCounters, type Counters } from '../limits/window-counters.js'
import { domainRoutes } from '../domains/routes.js'
import { importRoutes } from '../imports/routes.js'
import { QR_IMAGES_PER_MINUTE } from '../links/qr.js'
import { qrRoutes } from '../links/qr-routes.js'
import { linkRoutes } from '../links/routes.js'
import { pixelRoutes } from '../pixels/routes.js'
import type { Services } from '../services.js'
import { TooManyAttemptsError } from '../shared/errors.js'
import { spaceRoutes } from '../spaces/routes.js'
import { statsRoutes } from '../stats/routes.js'
import { webhookRoutes } from '../webhooks/routes.js'
import { bearerToken, registerAuth } from '../http/auth.js'
import { registerBodyParsers } from '../http/body.js'

export interface ApiOptions {
  config: Config
  services: Services
  defaultDomainId: () => number | null
  /** Where the rate limit is counted (this process when absent; see src/limits/). */
  counters?: Counters
  /** QR images per user (shared with the dashboard's; counted in `counters` when absent). */
  qrLimit?: RequestLimit
}

export async function apiV1(app: FastifyInstance, options: ApiOptions): Promise<void> {
  const { config, services } = options
  const counters = options.counters ?? new MemoryCounters()
  registerBodyParsers(app)
  if (config.apiRateLimit > 0) {
    await app.register(rateLimit, {
      global: true,
      max: config.apiRateLimit,
      timeWindow: API_LIMIT_WINDOW_MS,
      nameSpace: 'slink-api-',
      // Requests are not refused for want of a counter.
      skipOnError: true,
      store: countersStore(counters),
      keyGenerator: (request) => {
        const token = bearerToken(request)
        return token === null ? `ip:${request.ip}` : limitKeyOf(token)
      },
      addHeaders: {
        'x-ratelimit-limit': true,
        'x-ratelimit-remaining': true,
        'x-ratelimit-reset': true,
        'retry-after': true,
      },
      errorResponseBuilder: (_request, context) =>
        new TooManyAttemptsError(Math.max(1, Math.ceil(context.ttl / 1000))),
    })
  }
  registerAuth(app, services.users)
  const publicUrl = config.publicUrl
  linkRoutes(app, services.links, services.presenter, publicUrl, options.defaultDomainId)
  qrRoutes(app, services.links, services.presenter, {
    codes: services.qrCodes,
    limit: options.qrLimit ?? new RequestLimit(counters, 'qr', QR_IMAGES_PER_MINUTE),
  })
  pixelRoutes(app, services.pixels, publicUrl)
  spaceRoutes(app, services.spaces, publicUrl)
  domainRoutes(app, services.domains, publicUrl)
  accountRoutes(app, services.users, options.defaultDomainId)
  statsRoutes(app, services.stats, publicUrl)
  webhookRoutes(app, services.webhooks, publicUrl)
  // A scope of its own: only this route reads files from multipart bodies.
  await app.register(importRoutes, {
    imports: services.imports,
    publicUrl,
    allowedHosts: config.importAllowedHosts,
    defaultDomainId: options.defaultDomainId,
    started: (run) => services.imports.track(run),
  })
}
