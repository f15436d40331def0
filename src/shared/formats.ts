/**
 * String formats used by request schemas. Each is registered with the validator under its
 * name, appears in the OpenAPI document as `format`, and has the message its failure reports.
 */
import { parseDomainName } from './domain-name.js'

const CONTROL_OR_SPACE = /[\s\p{Cc}]/u

/** An absolute http(s) URL with a host. Anything else (javascript:, data:, file:, …) fails. */
export function isHttpUrl(value: string): boolean {
  if (CONTROL_OR_SPACE.test(value)) return false
  // The scheme, `//` and a host right after it (`http:///x` has none).
  if (!/^https?:\/\/[^/?#]/i.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/**
 * An http(s) URL as the WHATWG URL parser reads it (`new URL(x).href`), which is where a
 * redirect to it goes: `http://evil.test\@example.com/` is `http://evil.test/@example.com/`.
 * A value that is not one comes back as it is, for validation to refuse.
 */
export function normalHttpUrl(value: string): string {
  return isHttpUrl(value) ? new URL(value).href : value
}

/** An address with one `@`, no spaces, and parts of sensible length (what the CLI accepts too). */
export const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,255}$/

export const FORMATS = {
  'http-url': isHttpUrl,
  'alpha-dash': (value: string) => /^[A-Za-z0-9_-]+$/.test(value),
  'time-hm': (value: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(value),
  'date-ymd': (value: string) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
    if (!m) return false
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
    const date = new Date(Date.UTC(y, mo - 1, d))
    return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d
  },
  'domain-name': (value: string) => parseDomainName(value) !== null,
  // Not `email`: the validator's own formats (ajv-formats) would replace a format of that name
  // with a stricter one that refuses the service's own `admin@localhost`.
  'sign-in-email': (value: string) => EMAIL_SHAPE.test(value),
  'time-zone': (value: string) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value })
      return true
    } catch {
      return false
    }
  },
} satisfies Record<string, (value: string) => boolean>

/**
 * `destination-url` (an http(s) URL or an allowed app link) depends on `APP_URL_SCHEMES`: the
 * app registers its check with the configured schemes (shared/destination-url.ts).
 */
export type FormatName = keyof typeof FORMATS | 'destination-url'

export const FORMAT_MESSAGES: Record<FormatName, (attribute: string) => string> = {
  'http-url': (a) => `The ${a} field must be a valid URL.`,
  'destination-url': (a) => `The ${a} field must be a valid URL.`,
  'alpha-dash': (a) =>
    `The ${a} field must only contain letters, numbers, dashes, and underscores.`,
  'time-hm': (a) => `The ${a} field must match the format H:i.`,
  'date-ymd': (a) => `The ${a} field must match the format Y-m-d.`,
  'domain-name': (a) => `The ${a} field must be a valid domain name.`,
  'sign-in-email': (a) => `The ${a} field must be a valid email address.`,
  'time-zone': (a) => `The ${a} field must be a valid timezone.`,
}
