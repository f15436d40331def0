/**
 * A password in front of something one link owns: the link itself (`link`) or its statistics
 * (`stats`). A gate counts an attempt under the per-visitor, per-link limit, then checks it,
 * and remembers a right one in a signed cookie (see remembered.ts). It answers in facts, never in pages: the
 * redirect engine and the stats page each say what a refusal looks like.
 */
import type { AttemptLimiter } from '../limits/attempt-limiter.js'
import { verifyPassword } from '../shared/secrets.js'
import {
  cookieName,
  isRemembered,
  readCookie,
  rememberValue,
  setCookieHeader,
  type Purpose,
} from './remembered.js'

/** Longer passwords are not checked (they cannot have been set). */
const MAX_PASSWORD = 128

/** What a gate needs to know of the link it guards. */
export interface GuardedLink {
  id: number
  shortUrl: string
}

export type Attempt =
  { result: 'right' } | { result: 'wrong' } | { result: 'blocked'; wait: number }

export class PasswordGate {
  constructor(
    readonly purpose: Purpose,
    private readonly limiter: AttemptLimiter,
    private readonly secret: Buffer,
    private readonly now: () => number,
  ) {}

  /** Whether the visitor's cookies hold a still valid proof for this password (`tag`). */
  remembered(link: GuardedLink, tag: string, cookie: string | undefined): boolean {
    const value = readCookie(cookie, cookieName(this.purpose, link.id))
    return isRemembered(this.secret, this.purpose, link.id, tag, value, this.now())
  }

  /**
   * Checks one attempt, counted first: an attempt over the limit is not even looked at, and a
   * right one is given back (only wrong ones use up the limit).
   */
  async attempt(ip: string, link: GuardedLink, hash: string, password: unknown): Promise<Attempt> {
    const key = `${this.purpose}:${link.id}:${ip}`
    const wait = await this.limiter.take(key)
    if (wait > 0) return { result: 'blocked', wait }
    const given = typeof password === 'string' && password.length <= MAX_PASSWORD ? password : null
    if (given !== null && given !== '' && (await verifyPassword(given, hash))) {
      await this.limiter.giveBack(key)
      return { result: 'right' }
    }
    return { result: 'wrong' }
  }

  /** The Set-Cookie header that remembers a right password for an hour. */
  remember(link: GuardedLink, tag: string): string {
    const value = rememberValue(this.secret, this.purpose, link.id, tag, this.now())
    const secure = link.shortUrl.startsWith('https:')
    return setCookieHeader(cookieName(this.purpose, link.id), value, '/', secure)
  }
}
