/**
 * The redirect, step by step as the contract orders it: domain, unknown alias, disabled,
 * expired (date, then clicks), password, bots and HEAD, the counted click, targeting, pixels,
 * and the plain redirect. The engine decides and returns its decision as data (outcome.ts);
 * the HTTP edge renders pages, sends the answer and then hands the click to the recorder, so
 * no analytics work happens before the answer.
 */
import type { ClickEvent } from '../clicks/event.js'
import type { DomainRow } from '../db/types.js'
import type { AttemptLimiter } from '../limits/attempt-limiter.js'
import { isReservedAlias } from '../links/field-rules.js'
import { ruleWords } from '../links/rule-words.js'
import type { PasswordGate } from '../passwords/gate.js'
import type { PixelType } from '../pixels/types.js'
import { whenReady, type MaybePromise } from '../shared/maybe-promise.js'
import { isoMicro } from '../shared/time.js'
import { visitorContext, type VisitorContext } from '../visitors/context.js'
import { isPreviewFetcher } from '../visitors/preview-fetchers.js'
import { platformOf } from '../visitors/user-agent.js'
import type { RedirectCache } from './redirect-cache.js'
import {
  page,
  redirect,
  tooManyAttempts,
  withQuery,
  type Outcome,
  type PreviewFacts,
  type SocialFacts,
} from './outcome.js'
import { mergeQuery } from './query-merge.js'
import { href, type RedirectLink } from './redirect-link.js'
import type { RotationCounter } from './rotation-counter.js'
import type { RedirectStore } from './store.js'
import { firstRuleUrl } from './targeting/compiled-rules.js'
import { decide } from './targeting/decide.js'

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
  /**
   * Told once a link has no clicks left (this process took the last, or was refused one), so
   * that every process answers it as expired at once, bots and HEAD included.
   */
  onExhausted?: (link: RedirectLink) => void
  now?: () => number
}

export interface EngineParts {
  cache: RedirectCache
  store: RedirectStore
  rotation: RotationCounter
  /** Lookups of unknown aliases, per visitor address. */
  unknownAliases: AttemptLimiter
  /** The password in front of a protected link (purpose `link`). */
  passwords: PasswordGate
}

const ALIAS = /^[A-Za-z0-9_-]{1,255}$/

/** The link of a visit, or what to answer when there is none. */
export type Found = { link: RedirectLink } | { outcome: Outcome }

const DISABLED: Outcome = page(404, { page: 'disabled' })
const NOT_FOUND: Outcome = page(404, { page: 'not-found' })
const EXPIRED: Outcome = page(410, { page: 'expired' })

export class RedirectEngine {
  private readonly now: () => number
  private readonly cache: RedirectCache
  private readonly store: RedirectStore
  private readonly rotation: RotationCounter
  private readonly unknownAliases: AttemptLimiter
  private readonly passwords: PasswordGate

  constructor(
    parts: EngineParts,
    private readonly options: EngineOptions,
  ) {
    this.cache = parts.cache
    this.store = parts.store
    this.rotation = parts.rotation
    this.unknownAliases = parts.unknownAliases
    this.passwords = parts.passwords
    this.now = options.now ?? Date.now
  }

  /** A visit, answered synchronously when the domain and link are cached. */
  visit(input: VisitInput): MaybePromise<Visit> {
    const preview = input.alias.endsWith('+')
    const alias = preview ? input.alias.slice(0, -1) : input.alias
    return whenReady(this.find(input, alias), (found) =>
      'link' in found ? this.visitLink(found.link, input, preview) : none(found.outcome),
    )
  }

  private visitLink(link: RedirectLink, input: VisitInput, preview: boolean): MaybePromise<Visit> {
    const now = this.now()
    if (link.disabled) return none(DISABLED)
    if (!preview && this.isExpired(link, now)) return none(this.expired(link, input.userAgent))
    if (link.social !== null && !preview && isPreviewFetcher(input.userAgent)) {
      return none(page(200, socialFacts(link)))
    }
    if (
      link.passwordHash !== null &&
      !this.passwords.remembered(link, link.passwordTag, input.cookie)
    ) {
      return none(this.passwordForm(link, withQuery(`/${input.alias}`, input.query)))
    }
    if (preview) return none(page(200, previewFacts(link)))

    const visitor = visitorContext({
      ip: input.ip,
      userAgent: input.userAgent,
      acceptLanguage: input.acceptLanguage,
      referer: input.referer,
      time: now,
    })
    if (input.method === 'HEAD' || visitor.bot) return none(this.redirectTo(link.url, input.query))
    if (link.expirationClicks === null) return this.counted(link, input, visitor, false)
    return whenReady(this.store.takeLimitedClick(link.id), (taken) => {
      if (taken !== 'taken' && !link.exhausted) {
        link.exhausted = true
        this.options.onExhausted?.(link)
      }
      if (taken !== 'refused') return this.counted(link, input, visitor, true)
      return none(this.expired(link, input.userAgent))
    })
  }

  /** Steps 7 to 9 for a click that counts: rules, then targeting, then pixels or the redirect. */
  private counted(
    link: RedirectLink,
    input: VisitInput,
    visitor: VisitorContext,
    counted: boolean,
  ): MaybePromise<Visit> {
    const ruled = link.rules.length === 0 ? null : firstRuleUrl(link.rules, visitor, input.query)
    if (ruled !== null) return this.sent(link, input, visitor, counted, ruled)
    const { targeting } = link
    const counter =
      targeting.kind === 'rotation'
        ? this.rotation.next(link.id, targeting.cycle.length, link.lastRotation)
        : 0
    return whenReady(counter, (position) =>
      this.sent(link, input, visitor, counted, decide(targeting, visitor, position)),
    )
  }

  /** Step 8 or 9 to the chosen destination, with the click to record. */
  private sent(
    link: RedirectLink,
    input: VisitInput,
    visitor: VisitorContext,
    counted: boolean,
    destination: string,
  ): Visit {
    const click: ClickEvent = {
      linkId: link.id,
      counted,
      at: visitor.time,
      ip: input.ip,
      userAgent: input.userAgent ?? '',
      acceptLanguage: input.acceptLanguage,
      referer: input.referer,
      query: input.query,
      destination,
    }
    if (link.pixels.length === 0)
      return { outcome: this.redirectTo(destination, input.query), click }
    const pixels = link.pixels.map((p) => ({ type: p.type as PixelType, value: p.value }))
    const outcome = page(200, {
      page: 'pixels' as const,
      destination: mergeQuery(destination, input.query),
      pixels,
      consent: this.options.pixelConsent,
    })
    return { outcome, click }
  }

  /** A password sent from the form: remembered and redirected back on success. */
  async submitPassword(input: VisitInput, password: unknown): Promise<Outcome> {
    const preview = input.alias.endsWith('+')
    const found = await this.find(input, preview ? input.alias.slice(0, -1) : input.alias)
    if (!('link' in found)) return found.outcome
    const { link } = found
    if (link.disabled) return DISABLED
    const back = withQuery(`/${input.alias}`, input.query)
    if (link.passwordHash === null) return redirect(303, back)
    const attempt = await this.passwords.attempt(input.ip, link, link.passwordHash, password)
    if (attempt.result === 'blocked') return tooManyAttempts('passwords', attempt.wait)
    if (attempt.result === 'wrong') return this.passwordForm(link, back, WRONG_PASSWORD)
    return { ...redirect(303, back), setCookie: this.passwords.remember(link, link.passwordTag) }
  }

  /** The link of a visit, or what to answer when there is none. */
  find(input: VisitInput, alias: string): MaybePromise<Found> {
    return whenReady(this.cache.domain(input.hostname), (domain): MaybePromise<Found> => {
      if (domain === null) return { outcome: NOT_FOUND }
      const known = ALIAS.test(alias) && !isReservedAlias(alias)
      return whenReady(
        known ? this.cache.link(domain, alias) : null,
        (link): MaybePromise<Found> => (link !== null ? { link } : this.unknown(domain, input.ip)),
      )
    })
  }

  /** An unknown alias: counted against the visitor's lookup limit, then the domain's 404. */
  private async unknown(domain: DomainRow, ip: string): Promise<{ outcome: Outcome }> {
    const wait = await this.unknownAliases.take(ip)
    if (wait > 0) return { outcome: tooManyAttempts('lookups', wait) }
    if (domain.not_found_page !== null)
      return { outcome: redirect(302, domain.not_found_page, 'not_found') }
    return { outcome: NOT_FOUND }
  }

  private passwordForm(link: RedirectLink, formAction: string, error?: string): Outcome {
    const facts = {
      page: 'password' as const,
      kind: 'link' as const,
      alias: link.alias,
      formAction,
    }
    return page(200, error === undefined ? facts : { ...facts, error })
  }

  private isExpired(link: RedirectLink, now: number): boolean {
    return (link.endsAt !== null && link.endsAt <= now) || link.exhausted
  }

  /** An expired link: its expiry URL (an Android intent only for Android), else the page. */
  private expired(link: RedirectLink, userAgent: string | undefined): Outcome {
    if (link.expirationUrl === null) return EXPIRED
    const offAndroid = link.expirationOffAndroid !== null && platformOf(userAgent) !== 'Android'
    return redirect(302, offAndroid ? link.expirationOffAndroid! : link.expirationUrl, 'expired')
  }

  private redirectTo(destination: string, query: string): Outcome {
    return redirect(this.options.redirectStatus, mergeQuery(destination, query))
  }
}

export const WRONG_PASSWORD = 'The password is not correct.'

/** What the preview of a link shows. */
function previewFacts(link: RedirectLink): PreviewFacts {
  const lists = link.targetLists
  // target_type 1 to 4 name the lists in this order; 0 (none) shows no rules.
  const active = [null, lists.country, lists.platform, lists.language, lists.rotation]
  const entries = active[link.targetType] ?? null
  const names = ['', 'Country', 'Platform', 'Language', 'Rotation']
  return {
    page: 'preview',
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
    rules: link.storedRules.map((rule) => ({
      when: ruleWords(rule.conditions),
      url: href(rule.url),
    })),
    statsUrl: link.privacy === 1 ? null : `${link.shortUrl}/stats`,
    protected: link.passwordHash !== null,
  }
}

/**
 * The social page of a link: its own preview fields, the title falling back to the link's title
 * and then to the short URL. A password link shows neither its destination nor its title (which
 * may have been fetched from the destination), only the fields its owner set for the preview.
 */
function socialFacts(link: RedirectLink): SocialFacts {
  const social = link.social!
  const locked = link.passwordHash !== null
  return {
    page: 'social',
    shortUrl: link.shortUrl,
    title: social.title ?? (locked ? null : link.title) ?? link.shortUrl,
    description: social.description,
    image: social.image,
    destination: locked ? null : link.url,
  }
}

function none(outcome: Outcome): Visit {
  return { outcome, click: null }
}
