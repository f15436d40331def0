/**
 * What a click's short-URL query tells the statistics: its `utm_source`, `utm_medium` and
 * `utm_campaign` (the first of each, decoded, without control characters, trimmed and cut to
 * MAX_UTM_LENGTH characters; empty is unknown), and its source: `qr` when the query holds the
 * scan flag `qr=1` (links/scan-flag.ts), `link` otherwise. Read on the click-writing thread.
 */
import { SCAN_FLAG } from '../links/scan-flag.js'

export const MAX_UTM_LENGTH = 255
/** Longer destinations are cut here (link URLs are shorter; see links/field-rules.ts). */
export const MAX_DESTINATION_LENGTH = 2048
/** Only this much of a query is read (request lines are bounded by the HTTP server anyway). */
const MAX_QUERY_READ = 8192

export interface QueryFacts {
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  source: 'qr' | 'link'
}

const NONE: QueryFacts = { utm_source: null, utm_medium: null, utm_campaign: null, source: 'link' }

function decoded(text: string): string {
  const plus = text.replace(/\+/g, ' ')
  try {
    return decodeURIComponent(plus)
  } catch {
    return plus
  }
}

/** Text a visitor sent, made safe to keep: no control characters, trimmed, bounded. */
export function keptText(value: string, max: number): string | null {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  if (clean === '') return null
  // Cut by characters (code points), never inside a surrogate pair.
  return clean.length <= max
    ? clean
    : Array.from(clean.slice(0, max * 2))
        .slice(0, max)
        .join('')
}

type UtmKey = 'utm_source' | 'utm_medium' | 'utm_campaign'
const UTM_KEYS: ReadonlySet<string> = new Set<UtmKey>(['utm_source', 'utm_medium', 'utm_campaign'])

export function queryFacts(query: string): QueryFacts {
  if (query === '') return NONE
  const facts: QueryFacts = { ...NONE }
  for (const pair of query.slice(0, MAX_QUERY_READ).split('&')) {
    if (pair === SCAN_FLAG) {
      facts.source = 'qr'
      continue
    }
    if (!pair.startsWith('utm_')) continue
    const at = pair.indexOf('=')
    const key = decoded(at === -1 ? pair : pair.slice(0, at))
    if (!UTM_KEYS.has(key) || facts[key as UtmKey] !== null) continue
    facts[key as UtmKey] = at === -1 ? null : keptText(decoded(pair.slice(at + 1)), MAX_UTM_LENGTH)
  }
  return facts
}
