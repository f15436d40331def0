/**
 * Configuration: environment variables, parsed and validated once at start-up.
 * A bad value throws a ConfigError whose message names the variable; the CLI prints it on one line.
 */
import proxyAddr from '@fastify/proxy-addr'
import { isAllowListEntry } from './outbound/address-policy.js'
import {
  DEFAULT_APP_URL_SCHEMES,
  NEVER_ALLOWED_SCHEMES,
  SCHEME_SYNTAX,
} from './shared/destination-url.js'

export class ConfigError extends Error {}

export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string }

/** `false`: ignore X-Forwarded-For; `true`: trust every hop; number: trust that many hops; string[]: trusted proxy addresses/CIDRs. */
export type TrustProxy = boolean | number | string[]

export interface Config {
  port: number
  host: string
  publicUrl: URL
  database: DatabaseConfig
  redisUrl: string | null
  initialApiKey: string | null
  trustProxy: TrustProxy
  redirectStatus: 301 | 302 | 307 | 308
  apiRateLimit: number
  titleFetch: boolean
  /** How long a cached link or domain may be served without hearing of a change (ms). */
  cacheTtlMs: number
  pixelConsent: boolean
  /** Private hosts, addresses or CIDRs webhooks may reach (public addresses always). */
  webhookAllowedHosts: string[]
  titleFetchAllowedHosts: string[]
  clickBacklog: number
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Non-public hosts, addresses and CIDRs an import through the API may reach. */
  importAllowedHosts: string[]
  /** Days raw click-log rows are kept; null keeps them all (daily statistics are always kept). */
  clickLogDays: number | null
  /** Addresses/CIDRs (or `loopback`, `linklocal`, `uniquelocal`) that may ask `/tls/allowed`. */
  tlsAskFrom: string[]
  /** Where /metrics is served (on HOST), or null: off. */
  metricsPort: number | null
  /** The bearer token /metrics asks for, or null: none. */
  metricsToken: string | null
  /** CLICK_STREAM_URL: `nats://…` (JetStream) or `redis://…` (a Redis Stream); null: none. */
  clickStreamUrl: string | null
  /** Schemes of the app links a link may send visitors to, besides http and https. */
  appUrlSchemes: ReadonlySet<string>
  /** GEOIP_DB: city databases (mmdb) for country, region and city; empty: the bundled country data. */
  geoipDb: string[]
}

type Env = Record<string, string | undefined>

export const CONFIG_VARIABLES = [
  ['PORT', '8080', 'TCP port to listen on.'],
  ['HOST', '0.0.0.0', 'Address to listen on.'],
  [
    'PUBLIC_URL',
    'http://localhost:$PORT',
    'Base URL of the default short domain (a global domain, created at start-up).',
  ],
  [
    'DATABASE_URL',
    'sqlite:./data/slink.db',
    '`sqlite:<path>` for the embedded database, or `postgres://…`.',
  ],
  ['REDIS_URL', '(none)', 'Optional Redis, for cross-process cache invalidation and limits.'],
  [
    'INITIAL_API_KEY',
    '(generated)',
    "First user's API key on an empty database (32 to 128 printable characters, no spaces).",
  ],
  [
    'TRUST_PROXY',
    'false',
    '`true`, a number of hops, or a comma list of proxy addresses/CIDRs whose `X-Forwarded-For`, `-Host` and `-Proto` are honoured (see docs/deploy.md).',
  ],
  ['REDIRECT_STATUS', '302', 'Status of a plain redirect: 301, 302, 307 or 308.'],
  ['API_RATE_LIMIT', '60', 'API requests a minute per key (0 turns the limit off).'],
  ['TITLE_FETCH', 'true', "Fetch a new link's title from its destination page in the background."],
  [
    'TITLE_FETCH_ALLOWED_HOSTS',
    '(none)',
    'Comma list of private hosts, addresses or CIDRs whose pages may give titles (an intranet).',
  ],
  [
    'CLICK_BACKLOG',
    '100000',
    'Clicks the writer may be behind by; past it, counted redirects wait for it (none is dropped).',
  ],
  ['PIXEL_CONSENT', 'false', 'Ask visitors for consent before loading tracking pixels.'],
  [
    'CACHE_TTL',
    '60 (5 on PostgreSQL without Redis)',
    'Seconds a cached link may be served without hearing of a change.',
  ],
  [
    'WEBHOOK_ALLOWED_HOSTS',
    '(none)',
    'Comma list of private host names, addresses or CIDRs that webhooks may reach (an internal CRM).',
  ],
  ['LOG_LEVEL', 'info', 'fatal, error, warn, info, debug, trace or silent.'],
  [
    'IMPORT_ALLOWED_HOSTS',
    '(none)',
    'Comma list of private hosts, addresses or CIDRs an import through the API may reach (only public addresses otherwise).',
  ],
  [
    'CLICK_LOG_DAYS',
    '(keep all)',
    'Days the raw click log is kept (1 to 36500); older rows are removed hourly. Daily statistics are kept for ever.',
  ],
  [
    'TLS_ASK_FROM',
    'loopback',
    'Comma list of addresses/CIDRs that may ask `GET /tls/allowed` (the TLS proxy); others get 404.',
  ],
  [
    'METRICS_PORT',
    '(none)',
    'Port (1 to 65535) serving Prometheus metrics at /metrics on HOST, for the whole machine; keep it off the public network (see docs/deploy.md).',
  ],
  [
    'METRICS_TOKEN',
    '(none)',
    'Bearer token /metrics asks for (16 to 256 printable characters, no spaces); needs METRICS_PORT.',
  ],
  [
    'CLICK_STREAM_URL',
    '(none)',
    'nats://… (JetStream stream SLINK_CLICKS, subject slink.clicks) or redis://… (Redis Stream slink:clicks): every stored click is also published there as a JSON event, at least once.',
  ],
  [
    'APP_URL_SCHEMES',
    '(common app schemes)',
    'App-link schemes links may use besides http(s) (`none`: none); default mailto,tel,sms,whatsapp,tg,spotify,itms-apps,market,intent,zoommtg,msteams. Never javascript, data, file, vbscript, blob, about, filesystem, view-source.',
  ],
  [
    'GEOIP_DB',
    '(none)',
    "A city database in MaxMind format (GeoLite2-City.mmdb), or DB-IP city lite's -ipv4,-ipv6 files: countries, regions, cities. About its file size in memory per process.",
  ],
] as const

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
  }
  return Number(raw)
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase()
  if (raw === undefined || raw === '') return fallback
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true
  if (['0', 'false', 'no', 'off'].includes(raw)) return false
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`)
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const found = values.find((v) => v === raw.trim().toLowerCase())
  if (!found) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`)
  return found
}

export function parseDatabaseUrl(raw: string, name = 'DATABASE_URL'): DatabaseConfig {
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '')
    if (path === '') throw new ConfigError(`${name} needs a file path after "sqlite:"`)
    return { kind: 'sqlite', path }
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw)
    } catch {
      throw new ConfigError(`${name} is not a valid postgres:// URL`)
    }
    return { kind: 'postgres', url: raw }
  }
  throw new ConfigError(`${name} must start with sqlite: or postgres://, got "${raw}"`)
}

function trustProxy(env: Env): TrustProxy {
  const raw = env.TRUST_PROXY?.trim()
  if (raw === undefined || raw === '') return false
  const lower = raw.toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true
  if (['0', 'false', 'no', 'off'].includes(lower)) return false
  if (/^\d+$/.test(raw)) return Number(raw)
  const parts = raw.split(',').map((p) => p.trim())
  if (parts.every((p) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(p) || p === 'loopback')) return parts
  throw new ConfigError(
    `TRUST_PROXY must be true, false, a hop count or a comma list of addresses, got "${raw}"`,
  )
}

/**
 * The allow lists of the guarded outbound client (WEBHOOK_ALLOWED_HOSTS, IMPORT_ALLOWED_HOSTS,
 * TITLE_FETCH_ALLOWED_HOSTS): private hosts, addresses or CIDRs an operator lets it reach.
 */
function allowList(env: Env, name: string): string[] {
  const raw = env[name]?.trim()
  if (!raw) return []
  // An empty entry (`a,,b`) is refused like any other bad one: it is most likely a typo.
  const entries = raw.split(',').map((e) => e.trim())
  const bad = entries.find((e) => !isAllowListEntry(e))
  if (bad !== undefined) {
    throw new ConfigError(`${name} must be a comma list of hosts, addresses or CIDRs, got "${bad}"`)
  }
  return entries
}

/** APP_URL_SCHEMES: scheme names, lower-cased; never one that runs code or reads local data. */
function appUrlSchemes(env: Env): ReadonlySet<string> {
  const raw = env.APP_URL_SCHEMES?.trim().toLowerCase()
  if (!raw) return new Set(DEFAULT_APP_URL_SCHEMES)
  if (raw === 'none') return new Set()
  const entries = raw.split(',').map((e) => e.trim().replace(/:$/, ''))
  for (const entry of entries) {
    if (!SCHEME_SYNTAX.test(entry)) {
      throw new ConfigError(`APP_URL_SCHEMES must be a comma list of URL schemes, got "${entry}"`)
    }
    if (NEVER_ALLOWED_SCHEMES.has(entry)) {
      throw new ConfigError(`APP_URL_SCHEMES cannot allow "${entry}": it is never a destination`)
    }
  }
  return new Set(entries)
}

/** TLS_ASK_FROM: addresses, CIDRs or proxy-addr's names, as proxy-addr reads them. */
function tlsAskFrom(env: Env): string[] {
  const raw = env.TLS_ASK_FROM?.trim()
  if (!raw) return ['loopback']
  const entries = raw.split(',').map((e) => e.trim())
  for (const entry of entries) {
    try {
      proxyAddr.compile(entry)
    } catch {
      throw new ConfigError(
        `TLS_ASK_FROM must be a comma list of addresses or CIDRs (or loopback), got "${entry}"`,
      )
    }
  }
  return entries
}

function publicUrl(env: Env, port: number): URL {
  const raw = env.PUBLIC_URL?.trim() || `http://localhost:${port}`
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`PUBLIC_URL is not a valid URL: "${raw}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`PUBLIC_URL must be an http or https URL, got "${raw}"`)
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new ConfigError(`PUBLIC_URL must be a bare origin without path or query, got "${raw}"`)
  }
  return url
}

function metrics(env: Env, port: number): Pick<Config, 'metricsPort' | 'metricsToken'> {
  const metricsPort = env.METRICS_PORT?.trim() ? integer(env, 'METRICS_PORT', 0, 1, 65535) : null
  if (metricsPort !== null && metricsPort === port) {
    throw new ConfigError(`METRICS_PORT must differ from PORT, got ${metricsPort} for both`)
  }
  const metricsToken = env.METRICS_TOKEN?.trim() || null
  if (metricsToken !== null && !/^[\x21-\x7e]{16,256}$/.test(metricsToken)) {
    throw new ConfigError('METRICS_TOKEN must be 16 to 256 printable characters without spaces')
  }
  if (metricsToken !== null && metricsPort === null) {
    throw new ConfigError(
      'METRICS_TOKEN is set but METRICS_PORT is not: set the port to serve /metrics',
    )
  }
  return { metricsPort, metricsToken }
}

function geoipDb(env: Env): string[] {
  const paths = (env.GEOIP_DB ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
  if (paths.length > 2) {
    throw new ConfigError(`GEOIP_DB names at most two files (IPv4 and IPv6), got ${paths.length}`)
  }
  return paths
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535)
  const initialApiKey = env.INITIAL_API_KEY?.trim() || null
  // Shorter keys can be guessed: 32 characters from the printable ones are about 200 bits at best.
  if (initialApiKey !== null && !/^[\x21-\x7e]{32,128}$/.test(initialApiKey)) {
    throw new ConfigError('INITIAL_API_KEY must be 32 to 128 printable characters without spaces')
  }
  const database = parseDatabaseUrl(env.DATABASE_URL?.trim() || 'sqlite:./data/slink.db')
  const clickStreamUrl = env.CLICK_STREAM_URL?.trim() || null
  if (clickStreamUrl !== null && !/^(nats|rediss?):\/\/[^/?#\s]/.test(clickStreamUrl)) {
    throw new ConfigError(
      `CLICK_STREAM_URL must start with nats://, redis:// or rediss:// and name a host, got "${clickStreamUrl}"`,
    )
  }
  const redisUrl = env.REDIS_URL?.trim() || null
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${redisUrl}"`)
  }
  const redirectStatus = integer(env, 'REDIRECT_STATUS', 302, 301, 308)
  if (![301, 302, 307, 308].includes(redirectStatus)) {
    throw new ConfigError(`REDIRECT_STATUS must be 301, 302, 307 or 308, got "${redirectStatus}"`)
  }
  return {
    port,
    host: env.HOST?.trim() || '0.0.0.0',
    publicUrl: publicUrl(env, port),
    database,
    redisUrl,
    initialApiKey,
    trustProxy: trustProxy(env),
    redirectStatus: redirectStatus as Config['redirectStatus'],
    apiRateLimit: integer(env, 'API_RATE_LIMIT', 60, 0, 1_000_000),
    titleFetch: boolean(env, 'TITLE_FETCH', true),
    // Without Redis, processes on other machines cannot announce changes: keep entries short.
    cacheTtlMs:
      integer(
        env,
        'CACHE_TTL',
        database.kind === 'postgres' && redisUrl === null ? 5 : 60,
        1,
        86_400,
      ) * 1000,
    pixelConsent: boolean(env, 'PIXEL_CONSENT', false),
    webhookAllowedHosts: allowList(env, 'WEBHOOK_ALLOWED_HOSTS'),
    titleFetchAllowedHosts: allowList(env, 'TITLE_FETCH_ALLOWED_HOSTS'),
    clickBacklog: integer(env, 'CLICK_BACKLOG', 100_000, 10, 10_000_000),
    logLevel: oneOf(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    importAllowedHosts: allowList(env, 'IMPORT_ALLOWED_HOSTS'),
    clickStreamUrl,
    geoipDb: geoipDb(env),
    clickLogDays: env.CLICK_LOG_DAYS?.trim() ? integer(env, 'CLICK_LOG_DAYS', 0, 1, 36_500) : null,
    tlsAskFrom: tlsAskFrom(env),
    appUrlSchemes: appUrlSchemes(env),
    ...metrics(env, port),
  }
}
