/**
 * Headers every answer carries, whoever writes it (the redirect fast path, the framework's
 * routes, its raw errors): they are set on the response before any handler runs, and each
 * `writeHead` merges them with its own.
 *
 * - `X-Content-Type-Options: nosniff`: no answer is read as another type than it says.
 * - `Strict-Transport-Security` when the request came over https: a TLS socket, or a trusted
 *   proxy's `X-Forwarded-Proto: https`, or (no trusted proxy saying otherwise) a `PUBLIC_URL`
 *   that is https, which means a TLS proxy in front. Redirects carry it too: most visitors of
 *   a short domain only ever see its redirects, and a short link followed over plain http could
 *   be answered with any destination. No `includeSubDomains`: the names under the public host
 *   are not necessarily this service's. Browsers ignore the header over plain http.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import type { Config } from '../config.js'
import { forwardedReader, proxyTrust } from './proxy-trust.js'

/** One year, the value browsers' preload lists ask of a site. */
export const HSTS = 'max-age=31536000'

type Listener = (request: IncomingMessage, response: ServerResponse) => void

/** Whether a request came over https (see above). */
export function cameOverHttps(
  config: Pick<Config, 'publicUrl' | 'trustProxy'>,
): (request: IncomingMessage) => boolean {
  const publicHttps = config.publicUrl.protocol === 'https:'
  const forwarded = forwardedReader(proxyTrust(config.trustProxy))
  return (request) => {
    if ((request.socket as Partial<TLSSocket>).encrypted === true) return true
    const proto = forwarded(request, 'x-forwarded-proto')
    return proto === undefined ? publicHttps : proto.toLowerCase() === 'https'
  }
}

export function withSecurityHeaders(
  config: Pick<Config, 'publicUrl' | 'trustProxy'>,
  listener: Listener,
): Listener {
  const https = cameOverHttps(config)
  return (request, response) => {
    response.setHeader('X-Content-Type-Options', 'nosniff')
    if (https(request)) response.setHeader('Strict-Transport-Security', HSTS)
    listener(request, response)
  }
}
