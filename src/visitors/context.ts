/**
 * The visitor as a redirect sees it, built once per request from the client IP and headers.
 * Each part is worked out on first read and then kept, so a redirect pays only for what it
 * reads: `bot` always, then the one part its link's targeting needs (`country`, `region`,
 * `platform` or `languages`); the click recorder reads the rest (`browser`, `device`, `referrerHost`) after
 * the response is on its way.
 */
import type { Platform } from '../links/targeting-keys.js'
import { isBot } from './bot.js'
import { countryOf, placeOf } from './geoip.js'
import { preferredLanguages } from './languages.js'
import { browserOf, deviceOf, platformOf, type DeviceType } from './user-agent.js'

export interface VisitorInput {
  /** The client address (after trusted-proxy handling), IPv4, IPv6 or IPv4-mapped IPv6. */
  ip: string | null | undefined
  userAgent: string | null | undefined
  acceptLanguage: string | null | undefined
  referer?: string | null | undefined
  /** When the request came, epoch milliseconds; now when absent. */
  time?: number
}

export interface VisitorContext {
  readonly time: number
  /** ISO 3166-1 alpha-2, upper case. */
  readonly country: string | null
  /**
   * The region's (state's, province's) English name as the GeoIP data gives it (`Bavaria`,
   * `California`); null without a city database (GEOIP_DB) or when the data has none.
   */
  readonly region: string | null
  /**
   * The region as ISO 3166-2 (`US-CA`) when the GeoIP data gives its code (MaxMind's
   * GeoLite2-City does; DB-IP's city lite has names only); else null.
   */
  readonly regionCode: string | null
  readonly platform: Platform | null
  /** ISO 639-1 codes, most preferred first. */
  readonly languages: readonly string[]
  readonly bot: boolean
  readonly browser: string | null
  readonly device: DeviceType
  /** Host name of an http(s) Referer, lower case. */
  readonly referrerHost: string | null
}

const MAX_REFERER_LENGTH = 2048

export function referrerHostOf(referer: string | null | undefined): string | null {
  if (!referer || referer.length > MAX_REFERER_LENGTH) return null
  try {
    const url = new URL(referer)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    return url.hostname || null
  } catch {
    return null
  }
}

/** Parts that can be `null` are kept as `undefined` until worked out. */
class LazyVisitor implements VisitorContext {
  readonly time: number
  readonly #input: VisitorInput
  #country: string | null | undefined
  #region: string | null | undefined
  #regionCode: string | null | undefined
  #platform: Platform | null | undefined
  #languages: readonly string[] | undefined
  #bot: boolean | undefined
  #browser: string | null | undefined
  #device: DeviceType | undefined
  #referrerHost: string | null | undefined

  constructor(input: VisitorInput) {
    this.#input = input
    this.time = input.time ?? Date.now()
  }

  get country(): string | null {
    if (this.#country === undefined) this.#country = countryOf(this.#input.ip)
    return this.#country
  }
  get region(): string | null {
    if (this.#region === undefined) this.#place()
    return this.#region!
  }
  get regionCode(): string | null {
    if (this.#regionCode === undefined) this.#place()
    return this.#regionCode!
  }
  #place(): void {
    const place = placeOf(this.#input.ip)
    this.#region = place.region
    this.#regionCode = place.regionCode
    this.#country ??= place.country
  }
  get platform(): Platform | null {
    if (this.#platform === undefined) this.#platform = platformOf(this.#input.userAgent)
    return this.#platform
  }
  get languages(): readonly string[] {
    return (this.#languages ??= preferredLanguages(this.#input.acceptLanguage))
  }
  get bot(): boolean {
    return (this.#bot ??= isBot(this.#input.userAgent))
  }
  get browser(): string | null {
    if (this.#browser === undefined) this.#browser = browserOf(this.#input.userAgent)
    return this.#browser
  }
  get device(): DeviceType {
    return (this.#device ??= deviceOf(this.#input.userAgent))
  }
  get referrerHost(): string | null {
    if (this.#referrerHost === undefined) this.#referrerHost = referrerHostOf(this.#input.referer)
    return this.#referrerHost
  }
}

export function visitorContext(input: VisitorInput): VisitorContext {
  return new LazyVisitor(input)
}
