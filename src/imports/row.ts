/**
 * What every source reader yields: one link as the source described it, in our vocabulary,
 * before any rule has been applied. Readers only translate; the planner decides.
 */
export interface SourceRow {
  /** Position in the source (1 = the first link), for the per-row report. */
  line: number
  /**
   * What identifies the row in its source (its id, or its short URL): with the source's name,
   * the key that keeps a second run from creating it again. Null: the row cannot be told apart
   * (it is then keyed by its domain and alias, or its URL).
   */
  key: string | null
  url: string | null
  alias: string | null
  title: string | null
  /** A space name (created in the owner's account if missing). */
  space: string | null
  /** A host name; null means the account's default domain. */
  domain: string | null
  /** Epoch milliseconds. */
  createdAt: number | null
  clicks: number
  password: string | null
  expirationDate: string | null
  expirationTime: string | null
  expirationClicks: number | null
  disabled: boolean
  /** Epoch milliseconds of an expiry the source gave as an instant (wins over date/time). */
  endsAt: number | null
  /** Tag names as the source gave them (checked and made unique by the planner). */
  tags: string[]
  /** Why the reader could not read the row (wrong column count, unreadable value…). */
  problem: string | null
  /** What only the phpShort API carries (null or empty for every other source). */
  extra: RowExtra | null
}

/** A targeting entry as a source gave it (rotation entries have no key). */
export interface SourceTarget {
  key: string | null
  value: string | null
}

/** A pixel as a source described it; found or made in the owner's account by type and value. */
export interface SourcePixel {
  name: string | null
  type: string | null
  value: string | null
}

/**
 * The rest of a phpShort link: targeting, privacy, the expiry URL, pixels, and whether the
 * link and its statistics had passwords (the API says only that one is set, never which).
 */
export interface RowExtra {
  targetType: number
  country: SourceTarget[]
  platform: SourceTarget[]
  language: SourceTarget[]
  rotation: SourceTarget[]
  privacy: number
  hadPassword: boolean
  expirationUrl: string | null
  pixels: SourcePixel[]
}

export function emptyRow(line: number): SourceRow {
  return {
    line,
    key: null,
    url: null,
    alias: null,
    title: null,
    space: null,
    domain: null,
    createdAt: null,
    clicks: 0,
    password: null,
    expirationDate: null,
    expirationTime: null,
    expirationClicks: null,
    disabled: false,
    endsAt: null,
    tags: [],
    problem: null,
    extra: null,
  }
}

/** A trimmed text, or null when there is none. */
export function text(value: unknown): string | null {
  if (value === undefined || value === null) return null
  const s = (typeof value === 'string' ? value : String(value)).trim()
  return s === '' ? null : s
}

/** A non-negative integer count; unreadable or missing is 0. */
export function count(value: unknown): number {
  const s = text(value)
  if (s === null || !/^\d{1,15}$/.test(s)) return 0
  return Number(s)
}

/**
 * An instant from what sources write: ISO-8601 (with or without a zone: none means UTC),
 * `YYYY-MM-DD HH:MM:SS` (UTC), or epoch seconds / milliseconds. Null when unreadable.
 */
export function instant(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? epoch(value) : null
  const s = text(value)
  if (s === null) return null
  if (/^\d{9,13}$/.test(s)) return epoch(Number(s))
  const m =
    /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?\s*(Z|[+-]\d{2}:?\d{2}|UTC)?$/i.exec(
      s,
    )
  if (!m) return null
  const zone = m[3] === undefined || /^utc$/i.test(m[3]) ? 'Z' : m[3]
  const ms = Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}${zone}`)
  return Number.isNaN(ms) ? null : ms
}

function epoch(n: number): number {
  return n < 100_000_000_000 ? Math.round(n * 1000) : Math.round(n)
}

/** The host of a short URL, and its path as an alias (no path: null). */
export function splitShortUrl(value: unknown): { domain: string | null; alias: string | null } {
  const s = text(value)
  if (s === null) return { domain: null, alias: null }
  try {
    const url = new URL(/^https?:\/\//i.test(s) ? s : `https://${s}`)
    const alias = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''))
    return { domain: url.hostname.toLowerCase(), alias: alias === '' ? null : alias }
  } catch {
    return { domain: null, alias: null }
  }
}
