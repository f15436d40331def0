/**
 * Describes a click for the statistics: country, region and city, platform, browser, device,
 * first language, referrer host, the short URL's UTM values, the source (QR code or link) and
 * the destination, plus the salted visitor hash. Runs where clicks are written, not on the
 * request path; the answers for recent User-Agents, addresses and Accept-Language headers are
 * remembered, since real traffic repeats them.
 */
import { referrerHostOf } from '../visitors/context.js'
import { placeOf, type Place } from '../visitors/geoip.js'
import { preferredLanguages } from '../visitors/languages.js'
import { browserOf, deviceOf, platformOf, userAgentHead } from '../visitors/user-agent.js'
import { dayOf, type ClickEvent, type ClickRow } from './event.js'
import { keptText, MAX_DESTINATION_LENGTH, queryFacts } from './query-facts.js'
import type { VisitorHasher } from './visitor-hash.js'

class Memo<V> {
  private readonly entries = new Map<string, V>()
  constructor(private readonly size: number) {}
  get(key: string, compute: (key: string) => V): V {
    const known = this.entries.get(key)
    if (known !== undefined) return known
    const value = compute(key)
    if (this.entries.size >= this.size) this.entries.clear()
    this.entries.set(key, value)
    return value
  }
}

interface AgentFacts {
  platform: string | null
  browser: string | null
  device: string
}

export class ClickDescriber {
  private readonly agents = new Memo<AgentFacts>(5000)
  private readonly places = new Memo<Place>(20_000)
  private readonly languages = new Memo<string | null>(2000)

  constructor(private readonly hasher: VisitorHasher) {}

  /** Needs the salts of the events' days loaded (`VisitorHasher.prepare`). */
  describe(event: ClickEvent): ClickRow {
    const agent = this.agents.get(userAgentHead(event.userAgent), (ua) => ({
      platform: platformOf(ua),
      browser: browserOf(ua),
      device: deviceOf(ua),
    }))
    const place = this.places.get(event.ip, placeOf)
    const query = queryFacts(event.query)
    return {
      link_id: event.linkId,
      at: event.at,
      country: place.country,
      platform: agent.platform,
      browser: agent.browser,
      device: agent.device,
      language: event.acceptLanguage
        ? this.languages.get(
            event.acceptLanguage.slice(0, 512),
            (h) => preferredLanguages(h)[0] ?? null,
          )
        : null,
      referrer: referrerHostOf(event.referer),
      visitor: this.hasher.hash(dayOf(event.at), event.linkId, event.ip, event.userAgent),
      region: place.region,
      city: place.city,
      utm_source: query.utm_source,
      utm_medium: query.utm_medium,
      utm_campaign: query.utm_campaign,
      destination: keptText(event.destination, MAX_DESTINATION_LENGTH),
      source: query.source,
    }
  }
}
