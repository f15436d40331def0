/**
 * The API sources: another shortener read page by page through its documented API. Each
 * request goes through the `JsonFetch` it is given: the guarded outbound client for imports
 * started through our API, a plain one for the CLI. What each carries over is in docs/import.md.
 */
import {
  count,
  emptyRow,
  instant,
  splitShortUrl,
  text,
  withTags,
  type SourceRow,
  type SourceTarget,
} from '../row.js'

/** GET `url` with `headers`: the parsed JSON body of a 2xx answer; anything else throws. */
export type JsonFetch = (url: string, headers: Record<string, string>) => Promise<unknown>

export interface ApiSourceInput {
  baseUrl: string
  key: string
  fetch: JsonFetch
}

type Item = Record<string, unknown>

const MAX_PAGES = 100_000

function object(value: unknown): Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Item) : {}
}

function list(value: unknown): Item[] {
  return Array.isArray(value) ? value.map(object) : []
}

function endpoint(base: string, path: string, query: Record<string, string | number>): string {
  const url = new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`)
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v))
  return url.toString()
}

function targets(value: unknown): SourceTarget[] {
  return list(value).map((entry) => ({ key: text(entry.key), value: text(entry.value) }))
}

/** phpShort's booleans arrive as `true`, `1` or `"1"`. */
function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1'
}

/**
 * phpShort's v1 API (`GET /api/v1/links`, Bearer key, 100 a page; ours answers the same):
 * alias, URL, title, space name, domain, clicks, expiry (instant, click limit, URL), disabled,
 * dates, targeting lists, privacy, pixels, and whether a password was set.
 */
export async function* readPhpShort(input: ApiSourceInput): AsyncGenerator<SourceRow> {
  const headers = { authorization: `Bearer ${input.key}`, accept: 'application/json' }
  let line = 0
  for (let page = 1; page <= MAX_PAGES; page++) {
    const body = object(
      await input.fetch(endpoint(input.baseUrl, 'api/v1/links', { page, per_page: 100 }), headers),
    )
    const items = list(body.data)
    for (const item of items) {
      const row = emptyRow(++line)
      const domain = object(item.domain)
      const short = splitShortUrl(item.short_url)
      row.key = text(item.id) ?? text(item.short_url)
      row.alias = text(item.alias) ?? short.alias
      row.domain = text(domain.name)?.toLowerCase() ?? short.domain
      row.url = text(item.url)
      row.title = text(item.title)
      row.space = text(object(item.space).name)
      row.clicks = count(item.clicks)
      row.createdAt = instant(item.created_at)
      row.endsAt = instant(item.ends_at)
      row.expirationClicks = count(item.expiration_clicks) || null
      row.disabled = flag(item.disabled)
      row.extra = {
        targetType: count(item.target_type),
        country: targets(item.country_target),
        platform: targets(item.platform_target),
        language: targets(item.language_target),
        rotation: targets(item.rotation_target),
        privacy: count(item.privacy),
        hadPassword: flag(item.password),
        expirationUrl: text(item.expiration_url),
        pixels: list(item.pixels).map((p) => ({
          name: text(p.name),
          type: text(p.type)?.toLowerCase() ?? null,
          value: text(p.value),
        })),
      }
      yield row
    }
    const meta = object(body.meta)
    const last = Number(meta.last_page ?? page)
    if (items.length === 0 || !(page < last)) return
  }
}

/**
 * Shlink's REST API v3 (`GET /rest/v3/short-urls`, `X-Api-Key`): short code, long URL, title,
 * domain (its default domain becomes ours), creation date, visit total, valid-until,
 * max-visits and tags. Each visit's details stay behind.
 */
export async function* readShlink(input: ApiSourceInput): AsyncGenerator<SourceRow> {
  const headers = { 'x-api-key': input.key, accept: 'application/json' }
  let line = 0
  for (let page = 1; page <= MAX_PAGES; page++) {
    const body = object(
      await input.fetch(
        endpoint(input.baseUrl, 'rest/v3/short-urls', { page, itemsPerPage: 100 }),
        headers,
      ),
    )
    const shortUrls = object(body.shortUrls)
    const items = list(shortUrls.data)
    for (const item of items) {
      const row = emptyRow(++line)
      const meta = object(item.meta)
      const visits = object(item.visitsSummary)
      row.key = text(item.shortUrl) ?? `${text(item.domain) ?? ''}/${text(item.shortCode) ?? ''}`
      row.alias = text(item.shortCode)
      row.domain = text(item.domain)?.toLowerCase() ?? null
      row.url = text(item.longUrl)
      row.title = text(item.title)
      row.createdAt = instant(item.dateCreated)
      row.clicks = count(visits.total ?? item.visitsCount)
      row.endsAt = instant(meta.validUntil)
      row.expirationClicks = count(meta.maxVisits) || null
      withTags(row, Array.isArray(item.tags) ? item.tags : [])
      yield row
    }
    const pagination = object(shortUrls.pagination)
    const pages = Number(pagination.pagesCount ?? page)
    if (items.length === 0 || !(page < pages)) return
  }
}

/**
 * Kutt's API v2 (`GET /api/v2/links?skip=&limit=`, `X-API-KEY`): address, target, description
 * (as the title), domain, visit count, creation date and expiry. Passwords stay behind (the API
 * says only whether there is one).
 */
export async function* readKutt(input: ApiSourceInput): AsyncGenerator<SourceRow> {
  const headers = { 'x-api-key': input.key, accept: 'application/json' }
  const limit = 50
  let line = 0
  for (let skip = 0, pages = 0; pages < MAX_PAGES; skip += limit, pages++) {
    const body = object(
      await input.fetch(endpoint(input.baseUrl, 'api/v2/links', { skip, limit }), headers),
    )
    const items = list(body.data)
    for (const item of items) {
      const row = emptyRow(++line)
      const short = splitShortUrl(item.link)
      row.key = text(item.id) ?? text(item.link)
      row.alias = text(item.address) ?? short.alias
      row.domain = text(item.domain)?.toLowerCase() ?? null
      row.url = text(item.target)
      row.title = text(item.description)
      row.clicks = count(item.visit_count)
      row.createdAt = instant(item.created_at)
      row.endsAt = instant(item.expire_in)
      row.disabled = item.banned === true
      yield row
    }
    const total = Number(body.total ?? 0)
    if (items.length === 0 || skip + items.length >= total) return
  }
}

export const API_SOURCES = {
  phpshort: readPhpShort,
  shlink: readShlink,
  kutt: readKutt,
} satisfies Record<string, (input: ApiSourceInput) => AsyncIterable<SourceRow>>

export type ApiSource = keyof typeof API_SOURCES

export function isApiSource(name: string): name is ApiSource {
  return Object.hasOwn(API_SOURCES, name)
}
