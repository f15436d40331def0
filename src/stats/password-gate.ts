/**
 * Who may see a link's statistics page, whatever else the link is (disabled, expired, behind
 * its own password): `privacy` 0 shows the page, 1 is private (403), 2 asks for the
 * statistics password until it is given (remembered by the signed `slink_st_<id>` cookie;
 * wrong attempts limited like the link password's). A privacy-2 link without a stored
 * statistics password stays private.
 *
 * This is the statistics' own flow over the shared password gate (src/passwords/); the
 * redirect engine guards the link's password with its own gate.
 */
import type { PasswordGate } from '../passwords/gate.js'
import { page, redirect, tooManyAttempts, type Outcome } from '../redirects/outcome.js'

/** What the statistics' gate needs to know of a link. */
export interface StatsGuardedLink {
  id: number
  alias: string
  shortUrl: string
  privacy: number
  privacyPasswordHash: string | null
  privacyPasswordTag: string
}

export const WRONG_STATS_PASSWORD = 'The password is not correct.'

export class StatsPasswordGate {
  constructor(private readonly gate: PasswordGate) {}

  /**
   * `null` when the visitor may see the statistics; otherwise what to answer instead.
   * `formAction`: the stats page's path and query, where the password form posts.
   */
  refusal(link: StatsGuardedLink, cookie: string | undefined, formAction: string): Outcome | null {
    if (isPrivate(link)) return page(403, { page: 'stats-private' })
    if (link.privacy === 2 && !this.gate.remembered(link, link.privacyPasswordTag, cookie)) {
      return page(200, { page: 'password', kind: 'stats', alias: link.alias, formAction })
    }
    return null
  }

  /** A password sent from the form; `back` is the stats page (path and query) to return to. */
  async submit(
    ip: string,
    link: StatsGuardedLink,
    password: unknown,
    back: string,
  ): Promise<Outcome> {
    const hash = link.privacy === 2 ? link.privacyPasswordHash : null
    if (hash === null) return redirect(303, back)
    const attempt = await this.gate.attempt(ip, link, hash, password)
    if (attempt.result === 'blocked') return tooManyAttempts('passwords', attempt.wait)
    if (attempt.result === 'wrong') {
      const form = { page: 'password' as const, kind: 'stats' as const, alias: link.alias }
      return page(200, { ...form, formAction: back, error: WRONG_STATS_PASSWORD })
    }
    return { ...redirect(303, back), setCookie: this.gate.remember(link, link.privacyPasswordTag) }
  }
}

function isPrivate(link: StatsGuardedLink): boolean {
  return link.privacy === 1 || (link.privacy === 2 && link.privacyPasswordHash === null)
}
