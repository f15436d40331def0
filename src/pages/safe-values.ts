/**
 * Making stored values safe for the places they go: URLs in `href` (http and https only, else
 * `#`; a link's destinations may be app links too), form actions (a same-origin path), and JSON
 * inside an inline `<script>`.
 */
import { appLinkScheme, NEVER_ALLOWED_SCHEMES } from '../shared/destination-url.js'
import { isHttpUrl } from '../shared/formats.js'

/** The canonical form of an absolute http(s) URL, or `null` for anything else. */
export function httpUrl(value: string): string | null {
  return isHttpUrl(value) ? new URL(value).href : null
}

/** A URL fit for `href`: an http(s) URL, or `#` so nothing else (javascript:, data:…) is emitted. */
export function safeHref(value: string): string {
  return httpUrl(value) ?? '#'
}

/**
 * The canonical form of a link's destination: an http(s) URL, or an app link (`mailto:`,
 * `intent:` …) of a scheme that is never refused; `null` for anything else. (Which app schemes
 * are allowed was checked when the link was saved.)
 */
export function destinationUrl(value: string): string | null {
  if (isHttpUrl(value)) return new URL(value).href
  const scheme = appLinkScheme(value)
  return scheme !== null && !NEVER_ALLOWED_SCHEMES.has(scheme) ? new URL(value).href : null
}

/** A link's destination fit for `href`, or `#`. */
export function safeDestinationHref(value: string): string {
  return destinationUrl(value) ?? '#'
}

/**
 * A form action: a path on this origin (`/x`, not `//x` nor `/\x`, which browsers read as
 * another host), or an http(s) URL; anything else becomes `#`.
 */
export function safeFormAction(value: string): string {
  if (/^\/(?![/\\])/.test(value) && !/[\s\\\p{Cc}]/u.test(value)) return value
  return safeHref(value)
}

/** A link to a path on this origin (or an http(s) URL), with the same rules as a form action. */
export function safeLocalHref(value: string): string {
  return safeFormAction(value)
}

const SCRIPT_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
}

/**
 * A JavaScript literal for a JSON value, safe inside `<script>`: `<`, `>` and `&` are escaped so
 * neither `</script>` nor `<!--` can appear, and U+2028/U+2029 so old parsers don't break lines.
 */
export function scriptJson(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null'
  return json.replace(/[<>&\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c] ?? c)
}
