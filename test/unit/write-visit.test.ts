/**
 * A short-link visit's outcome written over a real connection (edge/fast-path.ts, writeVisit):
 * a redirect with its headers and no body, a page whole, a HEAD of a page without its body.
 */
import { createServer, type Server } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { writeVisit } from '../../src/edge/fast-path.js'
import type { Visit } from '../../src/redirects/engine.js'

let server: Server | null = null

afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = null
})

const VISITS: Record<string, Visit> = {
  '/go': {
    outcome: {
      kind: 'redirect',
      status: 302,
      location: 'https://example.com/',
      setCookie: 'v=1; Path=/',
    },
    click: null,
  },
  '/gone': { outcome: { kind: 'page', status: 404, page: { page: 'not-found' } }, click: null },
}

async function listen(): Promise<number> {
  server = createServer((request, response) => {
    writeVisit(response, VISITS[request.url!]!, request.method === 'HEAD')
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return (server.address() as { port: number }).port
}

/** Sends one request and reads until the server closes the connection. */
function exchange(port: number, method: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    )
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (text += chunk))
    // Without the date, which changes from one second to the next.
    socket.on('end', () => resolve(text.replace(/\r\ndate: [^\r]*/i, '')))
    socket.on('error', reject)
  })
}

describe('writeVisit', () => {
  it('writes a redirect with its location, cookie and no body', async () => {
    const port = await listen()
    const text = await exchange(port, 'GET', '/go')
    expect(text).toBe(
      'HTTP/1.1 302 Found\r\n' +
        'location: https://example.com/\r\n' +
        'cache-control: no-store\r\n' +
        'content-length: 0\r\n' +
        'set-cookie: v=1; Path=/\r\n' +
        'Connection: close\r\n\r\n',
    )
  })

  it('writes a page whole, and its headers alone for a HEAD', async () => {
    const port = await listen()
    const page = await exchange(port, 'GET', '/gone')
    expect(page).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/)
    const head = page.slice(0, page.indexOf('\r\n\r\n') + 4)
    const body = page.slice(head.length)
    expect(head).toContain(`\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`)
    expect(body).toMatch(/^<!doctype html>[^]*<\/html>\n?$/i)
    // The same headers, but for the style nonce, drawn anew for each page.
    const nonceless = (text: string) => text.replace(/'nonce-[^']+'/, "'nonce'")
    expect(nonceless(await exchange(port, 'HEAD', '/gone'))).toBe(nonceless(head))
  })
})
