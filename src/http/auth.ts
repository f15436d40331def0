/**
 * Bearer authentication for `/api/v1`: the key comes only from the Authorization header and
 * is checked on every request (a revoked key, or a disabled user's, stops working at once, on
 * every process).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { UnauthenticatedError } from '../shared/errors.js'
import type { Principal, UserService } from '../users/service.js'

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null
  }
}

/**
 * The key: the text after the last `Bearer ` (any case) of the Authorization header, up to a
 * comma, as phpShort's framework reads it (so `Authorization: Authorization: Bearer <key>`,
 * which some clients send, authenticates).
 */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (typeof header !== 'string') return null
  const at = header.toLowerCase().lastIndexOf('bearer ')
  if (at === -1) return null
  const rest = header.slice(at + 'bearer '.length)
  const comma = rest.indexOf(',')
  const token = (comma === -1 ? rest : rest.slice(0, comma)).trim()
  return token === '' ? null : token
}

/**
 * Adds authentication to every route registered after this call, as a route hook placed after
 * the ones already there (the rate limit's): so a request without a valid key is counted, and
 * every answer, 401 included, carries the rate-limit headers.
 */
export function registerAuth(app: FastifyInstance, users: UserService): void {
  app.decorateRequest('principal', null)
  const authenticate = async (request: FastifyRequest) => {
    const token = bearerToken(request)
    const principal = token === null ? null : await users.authenticate(token)
    if (!principal) throw new UnauthenticatedError()
    request.principal = principal
    // The Account page shows when a key was last used; the request does not wait for it.
    users.recordUse(principal.keyId).catch((error: unknown) => {
      request.log.error({ err: error }, 'recording when an API key was last used failed')
    })
  }
  app.addHook('onRoute', (route) => {
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat()
    route.onRequest = [...existing, authenticate]
  })
}

/** The authenticated user's id; routes behind `registerAuth` always have one. */
export function userIdOf(request: FastifyRequest): number {
  if (!request.principal) throw new UnauthenticatedError()
  return request.principal.userId
}
