/**
 * Which peers are proxies (TRUST_PROXY), as the one function of (address, hop) that Fastify and
 * @fastify/proxy-addr take, and the X-Forwarded-Host / X-Forwarded-Proto a request may be
 * believed on: only when the peer that sent it (hop 0) is trusted, and then its last value (the
 * one the nearest proxy wrote), as Fastify reads them for its own routes.
 */
import proxyAddr from '@fastify/proxy-addr'
import type { IncomingMessage } from 'node:http'
import type { TrustProxy } from '../config.js'

export type ProxyTrust = (address: string, hop: number) => boolean

/** `true`: every hop; a number n: the nearest n hops; a list: those addresses and CIDRs. */
export function proxyTrust(trust: TrustProxy): ProxyTrust {
  if (trust === true) return () => true
  if (trust === false) return () => false
  if (typeof trust === 'number') return (_address, hop) => hop < trust
  return proxyAddr.compile(trust)
}

export type ForwardedHeader = 'x-forwarded-host' | 'x-forwarded-proto'

/**
 * Reads the value of a forwarded header the request's peer is trusted to set, else `undefined`.
 * Whether a peer is trusted is worked out once per connection (parsing and matching an address
 * costs microseconds; a keep-alive connection carries many requests).
 */
export function forwardedReader(
  trust: ProxyTrust,
): (request: IncomingMessage, name: ForwardedHeader) => string | undefined {
  const peers = new WeakMap<object, boolean>()
  const trustedPeer = (request: IncomingMessage): boolean => {
    const socket = request.socket
    let trusted = peers.get(socket)
    if (trusted === undefined) {
      trusted = trust(socket.remoteAddress ?? '', 0)
      peers.set(socket, trusted)
    }
    return trusted
  }
  return (request, name) => {
    const value = request.headers[name]
    if (typeof value !== 'string' || value === '' || !trustedPeer(request)) return undefined
    const comma = value.lastIndexOf(',')
    return (comma === -1 ? value : value.slice(comma + 1)).trim()
  }
}
