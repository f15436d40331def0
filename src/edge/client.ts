/**
 * Who is asking, for requests answered outside the framework: the client address (with
 * TRUST_PROXY, the first untrusted X-Forwarded-For hop, as the framework computes it) and the
 * host name the request names (without port; X-Forwarded-Host only from a trusted peer).
 */
import proxyAddr from '@fastify/proxy-addr'
import type { IncomingMessage } from 'node:http'
import type { TrustProxy } from '../config.js'
import { forwardedReader, proxyTrust } from '../http/proxy-trust.js'

export type AddressOf = (request: IncomingMessage) => string

export function clientAddress(trust: TrustProxy): AddressOf {
  if (trust === false) return (request) => request.socket.remoteAddress ?? ''
  const trusted = proxyTrust(trust)
  return (request) => proxyAddr(request, trusted)
}

/**
 * The host name a request names: X-Forwarded-Host when a trusted proxy sent it (see
 * http/proxy-trust.ts), else the Host header; without port.
 */
export function requestHostname(trust: TrustProxy): (request: IncomingMessage) => string {
  if (trust === false) return (request) => hostnameOf(request.headers.host)
  const forwarded = forwardedReader(proxyTrust(trust))
  return (request) => hostnameOf(forwarded(request, 'x-forwarded-host') ?? request.headers.host)
}

/** `Host: Example.com:8080` → `Example.com`; `[::1]:80` → `[::1]`. */
export function hostnameOf(host: string | undefined): string {
  if (!host) return ''
  if (host.startsWith('[')) {
    const end = host.indexOf(']')
    return end === -1 ? host : host.slice(0, end + 1)
  }
  const colon = host.indexOf(':')
  return colon === -1 ? host : host.slice(0, colon)
}
