/**
 * Answers finished in one turn of the event loop leave together at its end (http/batched-writes.ts):
 * an answer's bytes wait in its socket until then, and nothing is lost or reordered on the way.
 */
import { createServer, type Server } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { writeVisit } from '../../src/edge/fast-path.js'
import { HOLD_MS, batchWrites, endAtOnce } from '../../src/http/batched-writes.js'
import type { Visit } from '../../src/redirects/engine.js'

let server: Server | null = null

afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = null
})

async function listen(handle: Parameters<typeof createServer>[1]): Promise<number> {
  server = createServer(handle)
  batchWrites(server)
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return (server.address() as { port: number }).port
}

/** Sends raw bytes on one connection and reads until `until` says the text is complete. */
function exchange(port: number, raw: string, until: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw))
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      text += chunk
      if (until(text)) {
        socket.destroy()
        resolve(text)
      }
    })
    socket.on('error', reject)
  })
}

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`

describe('answers written together at the end of a turn', () => {
  it('keeps an ended answer in its socket until the turn ends, then sends it', async () => {
    const seen: { corked: number; waiting: number; after: number }[] = []
    const port = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' })
      response.end('hello')
      const socket = response.socket!
      const corked = socket.writableCorked
      const waiting = socket.writableLength
      setImmediate(() => seen.push({ corked, waiting, after: socket.writableLength }))
    })
    const text = await exchange(port, GET('/'), (t) => t.endsWith('hello'))
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(text).toContain('\r\ncontent-length: 5\r\n')
    // Still in the socket right after end() (one cork left, bytes buffered)…
    expect(seen[0]!.corked).toBe(1)
    expect(seen[0]!.waiting).toBeGreaterThan(5)
    // …and on their way once the turn is over.
    expect(seen[0]!.after).toBe(0)
  })

  it('sends an answer ended with endAtOnce (a short-link visit) at once', async () => {
    const seen: { corked: number; waiting: number }[] = []
    const port = await listen((_request, response) => {
      response.writeHead(302, { location: 'https://example.com/', 'content-length': '0' })
      endAtOnce(response)
      seen.push({
        corked: response.socket!.writableCorked,
        waiting: response.socket!.writableLength,
      })
    })
    const text = await exchange(port, GET('/'), (t) => t.endsWith('\r\n\r\n'))
    expect(text).toMatch(/^HTTP\/1\.1 302 Found\r\nlocation: https:\/\/example\.com\/\r\n/)
    expect(seen).toEqual([{ corked: 0, waiting: 0 }])
  })

  it('sends short-link visits (writeVisit) at once: a redirect and a page', async () => {
    const visits: Record<string, Visit> = {
      '/go': {
        outcome: { kind: 'redirect', status: 302, location: 'https://example.com/' },
        click: null,
      },
      '/gone': { outcome: { kind: 'page', status: 404, page: { page: 'not-found' } }, click: null },
    }
    const seen: Record<string, number> = {}
    const port = await listen((request, response) => {
      writeVisit(response, visits[request.url!]!, false)
      seen[request.url!] = response.socket!.writableLength + response.socket!.writableCorked
    })
    const redirect = await exchange(port, GET('/go'), (t) => t.endsWith('\r\n\r\n'))
    expect(redirect).toMatch(/^HTTP\/1\.1 302 Found\r\nlocation: https:\/\/example\.com\/\r\n/)
    const page = await exchange(port, GET('/gone'), (t) => t.includes('</html>'))
    expect(page).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/)
    expect(seen).toEqual({ '/go': 0, '/gone': 0 })
  })

  it('answers pipelined requests on one connection in order, each whole', async () => {
    const port = await listen((request, response) => {
      const body = `answer to ${request.url}`
      response.writeHead(200, { 'content-length': String(body.length) })
      response.end(body)
    })
    const text = await exchange(port, GET('/a') + GET('/b') + GET('/c'), (t) =>
      t.endsWith('answer to /c'),
    )
    const bodies = text.split(/HTTP\/1\.1 200 OK\r\n[^]*?\r\n\r\n/).filter(Boolean)
    expect(bodies).toEqual(['answer to /a', 'answer to /b', 'answer to /c'])
  })

  it('sends a body written in chunks over several turns whole', async () => {
    const chunks = Array.from({ length: 50 }, (_, i) => `chunk ${i};`)
    const port = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' })
      let i = 0
      const next = () => {
        if (i === chunks.length) return response.end()
        response.write(chunks[i++])
        setImmediate(next)
      }
      next()
    })
    const text = await exchange(port, GET('/'), (t) => t.endsWith('0\r\n\r\n'))
    const body = text
      .slice(text.indexOf('\r\n\r\n') + 4)
      .split('\r\n')
      .filter((_, index) => index % 2 === 1)
      .join('')
    expect(body).toBe(chunks.join(''))
  })

  it('sends the waiting answers at once when the turn has held them past HOLD_MS', async () => {
    const sockets: Socket[] = []
    const port = await listen(() => {})
    server!.on('connection', (socket: Socket) => sockets.push(socket))
    const clients = [connect(port, '127.0.0.1'), connect(port, '127.0.0.1')]
    await new Promise<void>((resolve) => {
      const check = () => (sockets.length === 2 ? resolve() : setTimeout(check, 1))
      check()
    })
    const [first, second] = sockets as [Socket, Socket]
    // Two writes in one turn, as ServerResponse.end() makes them: cork, write, uncork.
    first.cork()
    first.write('first')
    first.uncork()
    expect(first.writableLength).toBe(5)
    const start = performance.now()
    while (performance.now() - start <= HOLD_MS + 1) {
      // a slow request in the same turn
    }
    second.cork()
    second.write('second')
    second.uncork()
    // The second answer found the first held too long: both left at once, in this turn.
    expect(first.writableLength).toBe(0)
    expect(second.writableLength).toBe(0)
    const received = await Promise.all(
      clients.map(
        (client) =>
          new Promise<string>((resolve) => client.once('data', (d) => resolve(String(d)))),
      ),
    )
    expect(received).toEqual(['first', 'second'])
    for (const client of clients) client.destroy()
  })
})
