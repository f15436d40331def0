/**
 * The one outbound HTTP client (webhook deliveries, title fetches): every hop's host name is
 * resolved, each address checked against the policy, and the connection pinned to the checked
 * address, so a DNS answer cannot change between the check and the request; redirects are
 * followed only as far as allowed, each checked again; time (for the whole exchange) and size
 * of the answer are limited.
 */
import { lookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { PUBLIC_ONLY, type AddressPolicy } from './address-policy.js'

export interface OutboundOptions {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  policy?: AddressPolicy
  timeoutMs?: number
  /** Bytes of the answer kept; reading stops there. */
  maxBytes?: number
  /** Redirects followed (GET only); 0 hands a redirect back as the answer. */
  maxRedirects?: number
  /** Stop reading once the body read so far satisfies this (a title fetch needs `</title>`). */
  enough?: (text: string) => boolean
  /** Aborts the exchange (its socket is closed and the promise rejects). */
  signal?: AbortSignal
}

export interface OutboundAnswer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
  /** The URL that answered (after redirects). */
  url: URL
}

/** Refused before connecting: the address is not allowed, or the URL is not http(s). */
export class OutboundRefused extends Error {}

/**
 * What a failed connection tells the user: the kind of failure, never an address (Node's own
 * messages name the address a host resolved to, such as `connect ECONNREFUSED 10.0.0.5:80`).
 */
const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'host unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ENODATA: 'host not found',
}

function withoutAddresses(url: URL, error: unknown): Error {
  if (error instanceof OutboundRefused) return error
  if (error instanceof Error && error.name === 'AbortError') return error
  const code = (error as { code?: unknown } | null)?.code
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (typeof code === 'string') {
    const known = NETWORK_FAILURES[code]
    if (known !== undefined) return new Error(`${host}: ${known}`)
    if (code.startsWith('ERR_TLS') || /CERT|SSL/.test(code)) return new Error(`${host}: TLS error`)
    return new Error(`${host}: connection failed`)
  }
  return error instanceof Error ? error : new Error(`${host}: connection failed`)
}

async function checkedAddress(
  url: URL,
  policy: AddressPolicy,
): Promise<{ address: string; family: number }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRefused(`${url.protocol} URLs are not fetched`)
  }
  const bare = url.hostname.replace(/^\[|\]$/g, '')
  const answers = await lookup(bare, { all: true })
  if (answers.length === 0) throw new Error(`${bare} has no address`)
  // The message says why, never which address the name resolved to.
  if (answers.some((a) => !policy.allows(bare, a.address)))
    throw new OutboundRefused(`${bare} is not reachable: private or local address`)
  return answers[0]!
}

function exchange(
  url: URL,
  pinned: { address: string; family: number },
  options: OutboundOptions & { timeoutMs: number; maxBytes: number },
): Promise<Omit<OutboundAnswer, 'url'>> {
  return new Promise((resolve, reject) => {
    const pin: LookupFunction = (_host, opts, callback) => {
      if ((opts as { all?: boolean }).all) callback(null, [pinned])
      else callback(null, pinned.address, pinned.family)
    }
    const client = url.protocol === 'https:' ? https : http
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    )
    const done =
      <T>(settle: (value: T) => void) =>
      (value: T) => {
        clearTimeout(timer)
        settle(value)
      }
    const ok = done(resolve)
    const fail = done(reject)
    const request = client.request(
      url,
      {
        method: options.method ?? 'GET',
        lookup: pin,
        agent: false,
        ...(options.signal ? { signal: options.signal } : {}),
        headers: {
          ...(options.body !== undefined
            ? { 'content-length': String(Buffer.byteLength(options.body)) }
            : {}),
          ...options.headers,
        },
      },
      (response) => {
        const status = response.statusCode ?? 0
        const chunks: Buffer[] = []
        let size = 0
        const answer = () => ({
          status,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8').slice(0, options.maxBytes),
        })
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk)
          size += chunk.length
          if (
            size >= options.maxBytes ||
            (options.enough && options.enough(Buffer.concat(chunks).toString('utf8')))
          ) {
            ok(answer())
            request.destroy()
          }
        })
        response.on('end', () => ok(answer()))
        response.on('error', fail)
      },
    )
    request.on('error', fail)
    request.end(options.body)
  })
}

/** Sends one request under the guard; throws OutboundRefused or a network error. */
export async function outboundRequest(
  target: string | URL,
  opts: OutboundOptions = {},
): Promise<OutboundAnswer> {
  const options = {
    policy: PUBLIC_ONLY,
    timeoutMs: 10_000,
    maxBytes: 64 * 1024,
    maxRedirects: 0,
    ...opts,
  }
  const deadline = Date.now() + options.timeoutMs
  let url = new URL(target)
  for (let hop = 0; ; hop++) {
    options.signal?.throwIfAborted()
    let answer: Omit<OutboundAnswer, 'url'>
    try {
      const pinned = await checkedAddress(url, options.policy)
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no answer within ${options.timeoutMs} ms`)
      answer = await exchange(url, pinned, { ...options, timeoutMs: left })
    } catch (error) {
      throw withoutAddresses(url, error)
    }
    const location = answer.headers.location
    const redirect = answer.status >= 300 && answer.status < 400 && location !== undefined
    if (!redirect || options.method === 'POST' || hop >= options.maxRedirects) {
      return { ...answer, url }
    }
    url = new URL(location, url)
  }
}
