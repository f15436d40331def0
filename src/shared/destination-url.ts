/**
 * Where a link may send a visitor: an absolute http(s) URL with a host, or an app link (`mailto:`,
 * `tel:`, `spotify:`, `intent:` …) whose scheme the operator allows (`APP_URL_SCHEMES`). Schemes
 * that run code or read local data in the browser are refused whatever the setting.
 */
import { isHttpUrl } from './formats.js'

/** Never a destination, whatever `APP_URL_SCHEMES` says. */
export const NEVER_ALLOWED_SCHEMES: ReadonlySet<string> = new Set([
  'javascript',
  'data',
  'file',
  'vbscript',
  'blob',
  'about',
  'filesystem',
  'view-source',
])

/** `APP_URL_SCHEMES` when it is not set. */
export const DEFAULT_APP_URL_SCHEMES: readonly string[] = [
  'mailto',
  'tel',
  'sms',
  'whatsapp',
  'tg',
  'spotify',
  'itms-apps',
  'market',
  'intent',
  'zoommtg',
  'msteams',
]

/** A scheme as RFC 3986 spells it. */
export const SCHEME_SYNTAX = /^[a-z][a-z0-9+.-]*$/

const CONTROL_OR_SPACE = /[\s\p{Cc}]/u
const APP_LINK = /^([A-Za-z][A-Za-z0-9+.-]*):(.+)$/s

/** The lower-cased scheme of an app link (`scheme:` and something after it), or `null`. */
export function appLinkScheme(value: string): string | null {
  if (CONTROL_OR_SPACE.test(value)) return null
  const scheme = APP_LINK.exec(value)?.[1]?.toLowerCase()
  if (scheme === undefined || scheme === 'http' || scheme === 'https') return null
  try {
    new URL(value)
  } catch {
    return null
  }
  return scheme
}

/** Whether `value` is a destination under the allowed app schemes. */
export function isDestinationUrl(value: string, appSchemes: ReadonlySet<string>): boolean {
  if (isHttpUrl(value)) return true
  const scheme = appLinkScheme(value)
  return scheme !== null && appSchemes.has(scheme) && !NEVER_ALLOWED_SCHEMES.has(scheme)
}

/**
 * A destination as the URL parser reads it, which is where a redirect to it goes (the scheme
 * lower-cased; an http(s) URL in its canonical form). Anything else comes back as it is.
 */
export function normalDestinationUrl(value: string): string {
  if (!isHttpUrl(value) && appLinkScheme(value) === null) return value
  return new URL(value).href
}

/** Whether a destination is an Android intent (`intent:`), which only Android can open. */
export function isIntentUrl(value: string): boolean {
  return value.length > 7 && value.slice(0, 7).toLowerCase() === 'intent:'
}

/**
 * The browser fallback an intent names (`S.browser_fallback_url=…`), when it is an http(s)
 * URL; `null` otherwise.
 */
export function intentFallbackUrl(intent: string): string | null {
  const found = /[#;]S\.browser_fallback_url=([^;]*)/.exec(intent)
  if (!found) return null
  let decoded: string
  try {
    decoded = decodeURIComponent(found[1]!)
  } catch {
    return null
  }
  return isHttpUrl(decoded) ? new URL(decoded).href : null
}
