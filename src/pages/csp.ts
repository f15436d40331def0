/**
 * Security headers of every page: a Content-Security-Policy built per render around a fresh
 * nonce (`default-src 'none'`; styles and scripts only with the nonce; images from this origin
 * and `data:`; on the pixel page, exactly the vendors' hosts, in a sandbox of its own origin),
 * plus nosniff, a Referrer-Policy and `Cache-Control: no-store`.
 */
import { randomBytes } from 'node:crypto'

/** Hosts (bare names, `*.` allowed) a page may reach beyond its own origin, per directive. */
export interface ExternalHosts {
  script: readonly string[]
  img: readonly string[]
  connect: readonly string[]
  frame: readonly string[]
}

export const NO_EXTERNAL_HOSTS: ExternalHosts = { script: [], img: [], connect: [], frame: [] }

/** All the hosts of several sets, per directive (duplicates are dropped when the CSP is built). */
export function unionHosts(sets: readonly ExternalHosts[]): ExternalHosts {
  return {
    script: sets.flatMap((set) => set.script),
    img: sets.flatMap((set) => set.img),
    connect: sets.flatMap((set) => set.connect),
    frame: sets.flatMap((set) => set.frame),
  }
}

/**
 * `same-origin` for ordinary pages (a form POST keeps its Origin header; nothing leaves for other
 * hosts); `strict-origin` for the pixel page (vendors and the destination see only the short
 * domain, never the alias or the short URL's query).
 */
export type PageReferrerPolicy = 'same-origin' | 'strict-origin'

/** What a sandboxed page may still do; `allow-same-origin` is not among them, by design. */
export type SandboxToken =
  | 'allow-scripts'
  | 'allow-forms'
  | 'allow-popups'
  | 'allow-top-navigation'
  | 'allow-top-navigation-to-custom-protocols'

/** 128 random bits, base64: a new one for every render. */
export function newNonce(): string {
  return randomBytes(16).toString('base64')
}

function sources(hosts: readonly string[]): string[] {
  return [...new Set(hosts)].map((host) => `https://${host}`)
}

export function contentSecurityPolicy(
  nonce: string,
  options: {
    script: boolean
    hosts: ExternalHosts
    formTargets?: readonly string[]
    /** Scripts of the page may fetch from its own origin (the dashboard's enhancement library). */
    connectSelf?: boolean
    /**
     * Images from any https URL (`img-src https:`): the link form's social card shows the image
     * URL its owner types. Images only; scripts, styles and connections stay as they are.
     */
    httpsImages?: boolean
    /**
     * The page runs in a sandbox with these `allow-` tokens and never `allow-same-origin`: its
     * origin is opaque, so code on it cannot reach this origin's cookies, storage or pages.
     */
    sandbox?: readonly SandboxToken[]
  },
): string {
  const { hosts } = options
  const directives: string[][] = [['default-src', "'none'"]]
  if (options.script) directives.push(['script-src', `'nonce-${nonce}'`, ...sources(hosts.script)])
  directives.push(['style-src', `'nonce-${nonce}'`])
  directives.push([
    'img-src',
    "'self'",
    'data:',
    ...(options.httpsImages ? ['https:'] : []),
    ...sources(hosts.img),
  ])
  if (hosts.connect.length > 0 || options.connectSelf) {
    directives.push([
      'connect-src',
      ...(options.connectSelf ? ["'self'"] : []),
      ...sources(hosts.connect),
    ])
  }
  if (hosts.frame.length > 0) directives.push(['frame-src', ...sources(hosts.frame)])
  directives.push(
    ['form-action', "'self'", ...(options.formTargets ?? [])],
    ['base-uri', "'none'"],
    ['frame-ancestors', "'none'"],
  )
  if (options.sandbox) directives.push(['sandbox', ...options.sandbox])
  return directives.map((parts) => parts.join(' ')).join('; ')
}

export function pageHeaders(
  csp: string,
  referrerPolicy: PageReferrerPolicy,
): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': referrerPolicy,
    'Cache-Control': 'no-store',
  }
}
