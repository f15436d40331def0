/**
 * Unknown API paths: a 405 with `Allow` when the path exists under other methods, else the
 * contract's 404. Route patterns are collected as routes are added.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, NotFoundError } from '../shared/errors.js'
import { sendError } from './error-handler.js'

interface KnownRoute {
  pattern: RegExp
  methods: Set<string>
}

export interface RouteTable {
  /** The methods that `path` answers to. */
  allowed(path: string): string[]
  /** Every API route as registered: `{ method, url }`. */
  list(): { method: string; url: string }[]
}

export function trackRoutes(app: FastifyInstance): RouteTable {
  const routes = new Map<string, KnownRoute>()
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return
    const source = route.url
      .replace(/\/$/, '')
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')
    const known = routes.get(route.url) ?? {
      pattern: new RegExp(`^${source}/?$`),
      methods: new Set<string>(),
    }
    for (const method of [route.method].flat()) known.methods.add(method)
    routes.set(route.url, known)
  })
  return {
    allowed(path) {
      const allowed = new Set<string>()
      for (const route of routes.values()) {
        if (route.pattern.test(path)) for (const m of route.methods) allowed.add(m)
      }
      return [...allowed]
    },
    list: () =>
      [...routes].flatMap(([url, r]) => [...r.methods].map((method) => ({ method, url }))),
  }
}

export function apiNotFound(routes: RouteTable) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!
    const allowed = routes.allowed(path)
    if (allowed.length > 0) {
      reply.header('Allow', allowed.sort().join(', '))
      return sendError(new AppError(405, 'Method Not Allowed.'), request, reply)
    }
    return sendError(new NotFoundError(), request, reply)
  }
}
