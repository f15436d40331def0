/**
 * CSRF tokens of the dashboard's forms. Signed in, a form carries the session's CSRF secret,
 * which lives only on the server (a synchronizer token). Before sign-in (the sign-in and
 * one-time password forms) the browser gets a random `slink_csrf` cookie and the form carries
 * an HMAC of it under a server secret; a cross-site page can read neither.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export const CSRF_COOKIE = 'slink_csrf'
const COOKIE_SHAPE = /^[A-Za-z0-9_-]{43}$/

export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export class AnonymousCsrf {
  constructor(private readonly secret: Buffer) {}

  /** The cookie value to keep (a valid one from the request) or a new one to set. */
  cookieFor(current: string | undefined): { value: string; fresh: boolean } {
    if (current !== undefined && COOKIE_SHAPE.test(current)) return { value: current, fresh: false }
    return { value: randomBytes(32).toString('base64url'), fresh: true }
  }

  token(cookie: string): string {
    return createHmac('sha256', this.secret).update(`csrf:${cookie}`).digest('base64url')
  }

  check(cookie: string | undefined, given: unknown): boolean {
    if (cookie === undefined || !COOKIE_SHAPE.test(cookie)) return false
    return sameToken(given, this.token(cookie))
  }
}
