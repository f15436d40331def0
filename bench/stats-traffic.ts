/**
 * A year of realistic traffic for one link, written through the real click path (ClickWriter:
 * describe, aggregate, clickStoreFor), one batch per day: visitors from about 230 countries
 * (addresses sampled from the GeoIP data itself), 7 platforms, about 15 browsers, 3 device
 * types, 30 languages, 500 referrer hosts (and direct visits), a weekly and a daily rhythm.
 * A seeded generator makes every run write the same clicks.
 */
import { ClickDescriber } from '../src/clicks/describe.js'
import type { ClickEvent } from '../src/clicks/event.js'
import { clickStoreFor } from '../src/clicks/store.js'
import { VisitorHasher } from '../src/clicks/visitor-hash.js'
import { ClickWriter } from '../src/clicks/writer.js'
import type { Db } from '../src/db/connect.js'
import { countryOf } from '../src/visitors/geoip.js'
import { AGENTS, HOURS, LANGUAGES, REFERRERS } from './stats-vocabulary.js'

const DAY_MS = 86_400_000

/** mulberry32: small, fast and seeded. */
function generator(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Picks index i with probability weights[i] / sum (cumulative table, binary search). */
function picker(weights: readonly number[], random: () => number): () => number {
  const cumulative: number[] = []
  let sum = 0
  for (const w of weights) cumulative.push((sum += w))
  return () => {
    const x = random() * sum
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid]! > x) hi = mid
      else lo = mid + 1
    }
    return lo
  }
}

const zipf = (n: number, s: number) => Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s)

/** /24 networks by country, most common countries first (from random addresses' GeoIP answers). */
function networksByCountry(random: () => number): string[][] {
  const byCountry = new Map<string, string[]>()
  for (let i = 0; i < 1_500_000; i++) {
    const net = `${1 + Math.floor(random() * 223)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`
    const country = countryOf(`${net}.1`)
    if (country === null || countryOf(`${net}.254`) !== country) continue
    const list = byCountry.get(country) ?? []
    if (list.length < 2000) list.push(net)
    byCountry.set(country, list)
  }
  return [...byCountry.values()].sort((a, b) => b.length - a.length)
}

export interface TrafficReport {
  clicks: number
  countries: number
  writeMs: number
}

/** Writes `total` clicks of `linkId` over the `days` days ending with today (UTC). */
export async function writeYearOfClicks(
  db: Db,
  linkId: number,
  total: number,
  days: number,
): Promise<TrafficReport> {
  const random = generator(20_260_101)
  const networks = networksByCountry(random)
  const country = picker(zipf(networks.length, 1.05), random)
  const agent = picker(
    AGENTS.map((a) => a.weight),
    random,
  )
  const language = picker(
    LANGUAGES.map((l) => l.weight),
    random,
  )
  const referrer = picker(zipf(REFERRERS.length, 1.0), random)
  const hour = picker(HOURS, random)

  const hasher = new VisitorHasher(db)
  const writer = new ClickWriter(clickStoreFor(db), hasher, new ClickDescriber(hasher))
  const firstDay = Math.floor(Date.now() / DAY_MS) - (days - 1)
  const dayWeights = Array.from({ length: days }, (_, d) => {
    const weekday = (firstDay + d + 4) % 7 // 0 = Sunday
    return (weekday === 0 || weekday === 6 ? 0.7 : 1.1) * (0.75 + random() * 0.5)
  })
  const weightSum = dayWeights.reduce((a, b) => a + b, 0)
  const started = Date.now()
  let written = 0
  for (let d = 0; d < days; d++) {
    const count =
      d === days - 1 ? total - written : Math.round((total * dayWeights[d]!) / weightSum)
    const events: ClickEvent[] = []
    for (let i = 0; i < count; i++) {
      const nets = networks[country()]!
      const ip =
        random() < 0.02
          ? `10.0.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`
          : `${nets[Math.floor(random() * nets.length)]}.${1 + Math.floor(random() * 254)}`
      const direct = random() < 0.35
      events.push({
        linkId,
        counted: false,
        at: (firstDay + d) * DAY_MS + hour() * 3_600_000 + Math.floor(random() * 3_600_000),
        ip,
        userAgent: AGENTS[agent()]!.ua,
        acceptLanguage: random() < 0.05 ? undefined : LANGUAGES[language()]!.header,
        referer: direct ? undefined : `https://${REFERRERS[referrer()]}/post/${i % 97}`,
        query: '',
        destination: 'https://example.com/',
      })
    }
    events.sort((a, b) => a.at - b.at)
    await writer.write({ events, rotations: [] })
    written += count
  }
  return { clicks: written, countries: networks.length, writeMs: Date.now() - started }
}
