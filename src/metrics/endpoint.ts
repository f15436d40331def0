/**
 * The metrics listener: GET (or HEAD) `/metrics` on METRICS_PORT at HOST, in the Prometheus text
 * format; with METRICS_TOKEN set, only for `Authorization: Bearer <token>` (compared in
 * constant time). Anything else is a 404 (another path) or a 405 (another method).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface MetricsEndpointOptions {
  port: number
  host: string
  token: string | null
  contentType: string
  /** The text to answer; a rejection is a 503 (a worker did not answer in time, …). */
  text: () => Promise<string>
  onError?: (error: unknown) => void
}

export interface MetricsEndpoint {
  port: number
  close(): Promise<void>
}

const digest = (text: string) => createHash('sha256').update(text).digest()

function bearer(header: string | undefined): string | null {
  const match = /^bearer +(.+)$/i.exec(header?.trim() ?? '')
  return match ? match[1]!.trim() : null
}

function plain(response: ServerResponse, status: number, text: string, extra = {}): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    ...extra,
  })
  response.end(`${text}\n`)
}

export function listenForMetrics(options: MetricsEndpointOptions): Promise<MetricsEndpoint> {
  const expected = options.token === null ? null : digest(options.token)
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]
    if (path !== '/metrics') return plain(response, 404, 'Not found: metrics are at /metrics.')
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plain(response, 405, 'Method not allowed: use GET.', { allow: 'GET, HEAD' })
    }
    if (expected !== null) {
      const given = bearer(request.headers.authorization)
      if (given === null || !timingSafeEqual(digest(given), expected)) {
        return plain(response, 401, 'Unauthorized: send Authorization: Bearer <METRICS_TOKEN>.', {
          'www-authenticate': 'Bearer realm="metrics"',
        })
      }
    }
    options.text().then(
      (text) => {
        response.writeHead(200, {
          'content-type': options.contentType,
          'cache-control': 'no-store',
          'content-length': Buffer.byteLength(text),
        })
        response.end(request.method === 'HEAD' ? undefined : text)
      },
      (error: unknown) => {
        options.onError?.(error)
        plain(response, 503, 'Metrics are unavailable for now; try again.', { 'retry-after': '5' })
      },
    )
  })
  server.keepAliveTimeout = 72_000
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done())
            server.closeAllConnections()
          }),
      })
    })
  })
}
