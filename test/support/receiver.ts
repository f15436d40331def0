/**
 * A real webhook receiver: an HTTP server on 127.0.0.1 (port 0) that keeps every request and
 * answers with the status `answer` chooses (200 unless told otherwise).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
  json: { type: string; timestamp: string; data: Record<string, unknown> }
}

export interface Receiver {
  url: string
  received: Received[]
  /** Status to answer the nth request (0-based) with. */
  answer: (n: number, request: Received) => number
  /** Resolves once at least `count` requests arrived (or rejects after `ms`). */
  waitFor(count: number, ms?: number): Promise<Received[]>
  close(): Promise<void>
}

export async function startReceiver(path = '/hook', port = 0): Promise<Receiver> {
  const received: Received[] = []
  let n = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const entry = {
        path: req.url ?? '',
        headers: req.headers,
        body,
        json: JSON.parse(body) as Received['json'],
      }
      received.push(entry)
      res.writeHead(receiver.answer(n++, entry)).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const bound = (server.address() as AddressInfo).port
  const receiver: Receiver = {
    url: `http://127.0.0.1:${bound}${path}`,
    received,
    answer: () => 200,
    async waitFor(count, ms = 10_000) {
      const until = Date.now() + ms
      while (received.length < count) {
        if (Date.now() > until) {
          throw new Error(`expected ${count} webhook requests, got ${received.length}`)
        }
        await new Promise((r) => setTimeout(r, 20))
      }
      return received
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return receiver
}
