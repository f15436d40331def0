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
  return bearerTokenOf(request.headers.authorization)
}

/** The key in an Authorization header's value (see bearerToken). */
export function bearerTokenOf(header: string | undefined): string | null {
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
    const principal =
      token === null
        ? null
        : await authenticateKey(users, token, (error) =>
            request.log.error({ err: error }, 'recording when an API key was last used failed'),
          )
    if (!principal) throw new UnauthenticatedError()
    request.principal = principal
  }
  app.addHook('onRoute', (route) => {
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat()
    route.onRequest = [...existing, authenticate]
  })
}

/**
 * The user and key a key stands for, or null; a key that authenticates is noted as used (the
 * Account page shows when), without the request waiting for that write.
 */
export async function authenticateKey(
  users: UserService,
  token: string,
  logUseError: (error: unknown) => void,
): Promise<Principal | null> {
  const principal = await users.authenticate(token)
  if (principal) users.recordUse(principal.keyId).catch(logUseError)
  return principal
}

/** The authenticated user's id; routes behind `registerAuth` always have one. */
export function userIdOf(request: FastifyRequest): number {
  if (!request.principal) throw new UnauthenticatedError()
  return request.principal.userId
}
