/**
 * Who is asking, for requests answered outside the framework: the client address (with
 * TRUST_PROXY, the first untrusted X-Forwarded-For hop, as the framework computes it) and the
 * host name the request names (without port).
 */
import proxyAddr from '@fastify/proxy-addr'
import type { IncomingMessage } from 'node:http'
import type { TrustProxy } from '../config.js'

export type AddressOf = (request: IncomingMessage) => string

export function clientAddress(trust: TrustProxy): AddressOf {
  if (trust === false) return (request) => request.socket.remoteAddress ?? ''
  const trusted =
    trust === true
      ? () => true
      : typeof trust === 'number'
        ? (_address: string, hop: number) => hop < trust
        : proxyAddr.compile(trust)
  return (request) => proxyAddr(request, trusted)
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
