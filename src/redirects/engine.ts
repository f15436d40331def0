/**
 * The redirect, step by step as the contract orders it: domain, unknown alias, disabled,
 * expired (date, then clicks), password, bots and HEAD, the counted click, targeting, pixels,
 * and the plain redirect. The engine decides; routes.ts sends what it decided and then hands
 * the click to the recorder, so no analytics work happens before the answer.
 */
import type { ClickEvent } from '../clicks/event.js'
import type { DomainRow } from '../db/types.js'
import { isReservedAlias } from '../links/rules.js'
import type { PixelType } from '../pixels/types.js'
import {
  linkDisabledPage,
  linkExpiredPage,
  notFoundPage,
  passwordPage,
  pixelPage,
  previewPage,
  tooManyAttemptsPage,
} from '../pages/index.js'
import { then, type Maybe } from '../shared/maybe.js'
import { verifyPassword } from '../shared/secrets.js'
import { isoMicro } from '../shared/time.js'
import type { AttemptLimiter } from '../limits/attempt-limiter.js'
import type { LinkDirectory } from './link-directory.js'
import { page, redirect, withQuery, type Outcome } from './outcome.js'
import { mergeQuery } from './query-merge.js'
import type { RedirectLink } from './redirect-link.js'
import {
  cookieName,
  isRemembered,
  readCookie,
  rememberValue,
  setCookieHeader,
  type Purpose,
} from './remembered-password.js'
import type { RotationCounter } from './rotation-counter.js'
import type { RedirectStore } from './store.js'
import { decide } from './targeting/decide.js'
import { visitorContext, type VisitorContext } from './visitor/context.js'

export interface VisitInput {
  method: string
  hostname: string
  /** The path segment after `/`: an alias, or an alias and `+` for its preview. */
  alias: string
  /** The raw query string, without `?`. */
  query: string
  ip: string
  userAgent: string | undefined
  acceptLanguage: string | undefined
  referer: string | undefined
  cookie: string | undefined
}

export interface Visit {
  outcome: Outcome
  click: ClickEvent | null
}

export interface EngineOptions {
  redirectStatus: number
  pixelConsent: boolean
  secret: Buffer
  /**
   * Told once a link has no clicks left (this process took the last, or was refused one), so
   * that every process answers it as expired at once, bots and HEAD included.
   */
  onExhausted?: (link: RedirectLink) => void
  now?: () => number
}

const ALIAS = /^[A-Za-z0-9_-]{1,255}$/

type Found = { link: RedirectLink } | { outcome: Outcome }
const MAX_PASSWORD = 128

export class RedirectEngine {
  private readonly now: () => number

  constructor(
    private readonly directory: LinkDirectory,
    private readonly store: RedirectStore,
    private readonly rotation: RotationCounter,
    private readonly limits: { passwords: AttemptLimiter; unknownAliases: AttemptLimiter },
    private readonly options: EngineOptions,
  ) {
    this.now = options.now ?? Date.now
  }

  /** A visit, answered synchronously when the domain and link are cached. */
  visit(input: VisitInput): Maybe<Visit> {
    const preview = input.alias.endsWith('+')
    const alias = preview ? input.alias.slice(0, -1) : input.alias
    return then(this.find(input, alias), (found) =>
      'link' in found ? this.visitLink(found.link, input, preview) : none(found.outcome),
    )
  }

  private visitLink(link: RedirectLink, input: VisitInput, preview: boolean): Maybe<Visit> {
    const now = this.now()
    if (link.disabled) return none(page(404, linkDisabledPage()))
    if (!preview && this.isExpired(link, now)) return none(this.expired(link))
    if (link.passwordHash !== null && !this.remembered('link', link, input.cookie, now)) {
      const formAction = withQuery(`/${input.alias}`, input.query)
      const form = passwordPage({ alias: link.alias, formAction, kind: 'link' })
      return none(page(200, form))
    }
    if (preview) return none(page(200, this.preview(link)))

    const visitor = visitorContext({
      ip: input.ip,
      userAgent: input.userAgent,
      acceptLanguage: input.acceptLanguage,
      referer: input.referer,
      time: now,
    })
    if (input.method === 'HEAD' || visitor.bot) return none(this.redirectTo(link.url, input.query))
    if (link.expirationClicks === null) return this.counted(link, input, visitor, false)
    return then(this.store.takeLimitedClick(link.id), (taken) => {
      if (taken !== 'taken' && !link.exhausted) {
        link.exhausted = true
        this.options.onExhausted?.(link)
      }
      if (taken !== 'refused') return this.counted(link, input, visitor, true)
      return none(this.expired(link))
    })
  }

  /** Steps 7 to 9 for a click that counts: targeting, then pixels or the redirect. */
  private counted(
    link: RedirectLink,
    input: VisitInput,
    visitor: VisitorContext,
    counted: boolean,
  ): Maybe<Visit> {
    const { targeting } = link
    const counter =
      targeting.kind === 'rotation'
        ? this.rotation.next(link.id, targeting.cycle.length, link.lastRotation)
        : 0
    return then(counter, (position) => {
      const destination = decide(targeting, visitor, position)
      const click: ClickEvent = {
        linkId: link.id,
        counted,
        at: visitor.time,
        ip: input.ip,
        userAgent: input.userAgent ?? '',
        acceptLanguage: input.acceptLanguage,
        referer: input.referer,
      }
      if (link.pixels.length === 0)
        return { outcome: this.redirectTo(destination, input.query), click }
      const pixels = link.pixels.map((p) => ({ type: p.type as PixelType, value: p.value }))
      const target = mergeQuery(destination, input.query)
      const consent = this.options.pixelConsent
      return { outcome: page(200, pixelPage({ destination: target, pixels, consent })), click }
    })
  }

  /** A password sent from the form: remembered and redirected back on success. */
  async submitPassword(input: VisitInput, password: unknown): Promise<Outcome> {
    const preview = input.alias.endsWith('+')
    const found = await this.find(input, preview ? input.alias.slice(0, -1) : input.alias)
    if (!('link' in found)) return found.outcome
    const { link } = found
    if (link.disabled) return page(404, linkDisabledPage())
    const back = withQuery(`/${input.alias}`, input.query)
    if (link.passwordHash === null) return redirect(303, back)
    const outcome = await this.checkPassword(
      input.ip,
      link,
      'link',
      link.passwordHash,
      password,
      back,
    )
    return outcome === 'ok' ? this.rememberAndGo('link', link, link.passwordTag, back) : outcome
  }

  /** The link of a visit, or what to answer when there is none. */
  find(input: VisitInput, alias: string): Maybe<Found> {
    return then(this.directory.domain(input.hostname), (domain): Maybe<Found> => {
      if (domain === null) return { outcome: page(404, notFoundPage()) }
      const known = ALIAS.test(alias) && !isReservedAlias(alias)
      return then(known ? this.directory.link(domain, alias) : null, (link): Maybe<Found> =>
        link !== null ? { link } : this.unknown(domain, input.ip),
      )
    })
  }

  /** An unknown alias: counted against the visitor's lookup limit, then the domain's 404. */
  private async unknown(domain: DomainRow, ip: string): Promise<{ outcome: Outcome }> {
    const wait = await this.limits.unknownAliases.blockedFor(ip)
    if (wait > 0) {
      const rendered = tooManyAttemptsPage({ retryAfterSeconds: wait, reason: 'lookups' })
      return { outcome: page(429, rendered, wait) }
    }
    await this.limits.unknownAliases.hit(ip)
    if (domain.not_found_page !== null) return { outcome: redirect(302, domain.not_found_page) }
    return { outcome: page(404, notFoundPage()) }
  }

  /** Checks a password attempt under the per-visitor, per-link limit. */
  /** `formAction`: where the form posts again after a wrong password (path and query). */
  async checkPassword(
    ip: string,
    link: RedirectLink,
    purpose: Purpose,
    hash: string,
    password: unknown,
    formAction: string,
  ): Promise<'ok' | Outcome> {
    const key = `${purpose}:${link.id}:${ip}`
    const wait = await this.limits.passwords.blockedFor(key)
    if (wait > 0) return page(429, tooManyAttemptsPage({ retryAfterSeconds: wait }), wait)
    const given = typeof password === 'string' && password.length <= MAX_PASSWORD ? password : null
    if (given !== null && given !== '' && (await verifyPassword(given, hash))) return 'ok'
    await this.limits.passwords.hit(key)
    return page(
      200,
      passwordPage({
        alias: link.alias,
        formAction,
        kind: purpose,
        error: 'The password is not correct.',
      }),
    )
  }

  rememberAndGo(purpose: Purpose, link: RedirectLink, tag: string, back: string): Outcome {
    const value = rememberValue(this.options.secret, purpose, link.id, tag, this.now())
    const secure = link.shortUrl.startsWith('https:')
    return {
      ...redirect(303, back),
      setCookie: setCookieHeader(cookieName(purpose, link.id), value, '/', secure),
    }
  }

  remembered(
    purpose: Purpose,
    link: RedirectLink,
    cookie: string | undefined,
    now: number,
  ): boolean {
    const tag = purpose === 'link' ? link.passwordTag : link.privacyPasswordTag
    const value = readCookie(cookie, cookieName(purpose, link.id))
    return isRemembered(this.options.secret, purpose, link.id, tag, value, now)
  }

  private isExpired(link: RedirectLink, now: number): boolean {
    return (link.endsAt !== null && link.endsAt <= now) || link.exhausted
  }

  private expired(link: RedirectLink): Outcome {
    return link.expirationUrl !== null
      ? redirect(302, link.expirationUrl)
      : page(410, linkExpiredPage())
  }

  private redirectTo(destination: string, query: string): Outcome {
    return redirect(this.options.redirectStatus, mergeQuery(destination, query))
  }

  private preview(link: RedirectLink) {
    const lists = link.targetLists
    // target_type 1 to 4 name the lists in this order; 0 (none) shows no rules.
    const active = [null, lists.country, lists.platform, lists.language, lists.rotation]
    const entries = active[link.targetType] ?? null
    const names = ['', 'Country', 'Platform', 'Language', 'Rotation']
    return previewPage({
      shortUrl: link.shortUrl,
      destination: link.url,
      title: link.title,
      endsAt: link.endsAt === null ? null : isoMicro(link.endsAt),
      expirationClicks: link.expirationClicks,
      clicks: link.clicks,
      targeting:
        entries && entries.length > 0
          ? { type: names[link.targetType]!, entries: [...entries] }
          : null,
      statsUrl: link.privacy === 1 ? null : `${link.shortUrl}/stats`,
      protected: link.passwordHash !== null,
    })
  }
}

function none(outcome: Outcome): Visit {
  return { outcome, click: null }
}
