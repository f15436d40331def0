/**
 * The `/api/v1` scope: body parsers, the per-key rate limit, bearer authentication, and the
 * routes of every resource.
 */
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import { accountRoutes } from './account.js'
import type { Config } from '../../config.js'
import { API_LIMIT_WINDOW_MS, countersStore, limitKeyOf } from './rate-limit-store.js'
import { CountingAttemptLimiter, type AttemptLimiter } from '../../limits/attempt-limiter.js'
import { MemoryCounters, type Counters } from '../../limits/window-counters.js'
import { domainRoutes } from './domains.js'
import { importRoutes } from './imports.js'
import { QR_IMAGES_PER_MINUTE } from '../../links/qr.js'
import { qrRoutes } from './link-qr.js'
import { linkRoutes } from './links.js'
import { pixelRoutes } from './pixels.js'
import { TooManyAttemptsError } from '../../shared/errors.js'
import { spaceRoutes } from './spaces.js'
import { statsRoutes } from './stats.js'
import { tagRoutes } from './tags.js'
import { utmTemplateRoutes } from './utm-templates.js'
import { webhookRoutes } from './webhooks.js'
import { bearerToken, registerAuth } from '../auth.js'
import { registerBodyParsers } from '../body.js'
import type { DomainService } from '../../domains/service.js'
import type { ImportService } from '../../imports/service.js'
import type { QrCodes } from '../../links/qr-codes.js'
import type { LinkPresenter } from '../../links/record.js'
import type { LinkService } from '../../links/service.js'
import type { PixelService } from '../../pixels/service.js'
import type { SpaceService } from '../../spaces/service.js'
import type { StatsService } from '../../stats/service.js'
import type { TagService } from '../../tags/service.js'
import type { UserService } from '../../users/service.js'
import type { UtmTemplateService } from '../../utm/service.js'
import type { WebhookService } from '../../webhooks/service.js'

/** The services the API's routes use, each handed to the routes of its resource. */
export interface ApiServices {
  users: UserService
  links: LinkService
  presenter: LinkPresenter
  qrCodes: QrCodes
  pixels: PixelService
  spaces: SpaceService
  tags: TagService
  domains: DomainService
  stats: StatsService
  webhooks: WebhookService
  imports: ImportService
  utmTemplates: UtmTemplateService
}

export interface ApiOptions {
  config: Config
  services: ApiServices
  defaultDomainId: () => number | null
  /** Where the rate limit is counted (this process when absent; see src/limits/). */
  counters?: Counters
  /** QR images per user (shared with the dashboard's; counted in `counters` when absent). */
  qrLimit?: AttemptLimiter
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
    limit: options.qrLimit ?? new CountingAttemptLimiter(counters, 'qr', QR_IMAGES_PER_MINUTE),
  })
  pixelRoutes(app, services.pixels, publicUrl)
  spaceRoutes(app, services.spaces, publicUrl)
  tagRoutes(app, services.tags, services.stats, publicUrl)
  utmTemplateRoutes(app, services.utmTemplates, publicUrl)
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
