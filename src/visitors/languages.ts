/**
 * The visitor's languages from an Accept-Language header: ISO 639-1 primary codes in
 * preference order (q-value descending, then position), `q=0` and `*` left out, `de-DE` read
 * as `de`, each code once. Malformed parts are skipped, never an error. Only the first 512
 * characters and 20 languages count, so a hostile header is cheap.
 *
 * Hand-written rather than `negotiator`: negotiator returns whole tags that still need cutting
 * to their primary code and de-duplicating, and reads headers of any length. Measured (same
 * script and machine as `user-agent.ts`) on 100,000 headers of 6 real browser shapes, median:
 * 740,000 headers/s here, 570,000 for negotiator plus that post-processing.
 */
import { LANGUAGE_CODES } from '../shared/iso-codes.js'

export const ACCEPT_LANGUAGE_SCAN_LIMIT = 512
export const MAX_VISITOR_LANGUAGES = 20

const KNOWN = new Set(LANGUAGE_CODES)
/** Old codes some clients (Java, old Android) still send. */
const RENAMED: Record<string, string> = { iw: 'he', in: 'id', ji: 'yi', jw: 'jv' }
const TAG = /^([a-z]{2,3})(?:-[a-z0-9]{1,8})*$/i
/** Only a q-value is expected after the tag; any other parameter makes the part malformed. */
const QUALITY = /^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i

interface Choice {
  code: string
  q: number
}

/** One `tag;q=…` part, or `null` when it is malformed, `*`, `q=0` or no ISO 639-1 language. */
function parsePart(part: string): Choice | null {
  const semi = part.indexOf(';')
  const tag = TAG.exec((semi < 0 ? part : part.slice(0, semi)).trim())
  if (!tag) return null
  let q = 1
  if (semi >= 0) {
    const quality = QUALITY.exec(part.slice(semi + 1).trim())
    if (!quality) return null
    q = Number(quality[1])
    if (q === 0) return null
  }
  const primary = tag[1]!.toLowerCase()
  const code = RENAMED[primary] ?? primary
  return KNOWN.has(code) ? { code, q } : null
}

/** `fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5` → `['fr', 'en', 'de']`. */
export function preferredLanguages(header: string | null | undefined): string[] {
  if (!header) return []
  let text = header
  if (text.length > ACCEPT_LANGUAGE_SCAN_LIMIT) {
    text = text.slice(0, ACCEPT_LANGUAGE_SCAN_LIMIT)
    text = text.slice(0, Math.max(0, text.lastIndexOf(','))) // drop the part that was cut
  }
  const choices: Choice[] = []
  for (let start = 0; start < text.length;) {
    let end = text.indexOf(',', start)
    if (end < 0) end = text.length
    const choice = parsePart(text.slice(start, end))
    if (choice) choices.push(choice)
    start = end + 1
  }
  if (choices.length > 1) choices.sort((a, b) => b.q - a.q) // stable: equal q keep their order
  const codes: string[] = []
  for (const { code } of choices) {
    if (codes.includes(code)) continue
    codes.push(code)
    if (codes.length === MAX_VISITOR_LANGUAGES) break
  }
  return codes
}
