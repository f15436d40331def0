/**
 * Uploads over a real socket on loopback: who sends a body is known before any of it is read
 * (a dashboard form without a session, or with a file before its CSRF token, is answered while
 * the body is still coming, and nothing is written), and a client that goes away mid-upload
 * leaves no temporary file behind (API and dashboard alike).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, KEY_A, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { expectStatus } from './helpers.js'

const BOUNDARY = '----upload-abort'
/** Announced, never all sent. */
const ANNOUNCED = 20 * 1024 * 1024
const CHUNK = Buffer.alloc(256 * 1024, 'a')

function partsBefore(fields: Record<string, string>): string {
  let head = ''
  for (const [name, value] of Object.entries(fields))
    head += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
  return (
    head +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n` +
    'Content-Type: text/csv\r\n\r\nurl\r\n'
  )
}

function requestHead(path: string, headers: Record<string, string>): string {
  const lines = [
    `POST ${path} HTTP/1.1`,
    'Host: short.test',
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    `Content-Length: ${ANNOUNCED}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ]
  return `${lines.join('\r\n')}\r\n\r\n`
}

/** The first answer's status line and headers, read from the socket. */
function answerHead(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1')
      const end = text.indexOf('\r\n\r\n')
      if (end !== -1) resolve(text.slice(0, end))
    })
    socket.on('error', reject)
  })
}

describe('uploads over a socket', () => {
  let t: TestApp
  let port: number
  let root: string
  let savedTmp: string | undefined
  let alice: FormClient

  beforeAll(async () => {
    // The upload's temporary directories go under a directory of this file's own.
    root = mkdtempSync(join(tmpdir(), 'slink-upload-root-'))
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.app.server.address() as AddressInfo).port
    savedTmp = process.env.TMPDIR
    process.env.TMPDIR = root
  })
  afterAll(async () => {
    if (savedTmp === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = savedTmp
    await t.services.imports.idle()
    await t.close()
    rmSync(root, { recursive: true, force: true })
  })

  const entries = () => readdirSync(root)

  /** Opens a connection and resolves once the server has it; `closed` waits for its end there. */
  async function open(): Promise<{ socket: Socket; closed: Promise<void> }> {
    const accepted = new Promise<Socket>((resolve) => t.app.server.once('connection', resolve))
    const socket = connect(port, '127.0.0.1')
    const server = await accepted
    const closed = new Promise<void>((resolve) => server.once('close', () => resolve()))
    return { socket, closed }
  }

  /** Checks, one event-loop turn apart, at most `max` times, until `done()` holds. */
  async function within(max: number, done: () => boolean): Promise<number> {
    for (let check = 1; check <= max; check++) {
      if (done()) return check
      await new Promise((resolve) => setImmediate(resolve))
    }
    throw new Error(`not done after ${max} checks`)
  }

  /** Sends the head and file chunks until the server has made the upload's directory. */
  async function startUpload(socket: Socket, head: string, nth = 1): Promise<string> {
    socket.write(head)
    for (let sent = 0; sent < 40; sent++) {
      await new Promise<void>((resolve) => socket.write(CHUNK, () => resolve()))
      const made = entries()
      if (made.length >= nth) return made[0]!
    }
    throw new Error('the server never started writing the upload')
  }

  it('an API upload whose client goes away mid-body leaves no temporary file', async () => {
    expect(entries()).toEqual([])
    const { socket, closed } = await open()
    const made = await startUpload(
      socket,
      requestHead('/api/v1/imports', { Authorization: `Bearer ${KEY_A}` }) +
        partsBefore({ source: 'csv', dry_run: '1' }),
    )
    // It would have been seen: the upload is on disk while the body comes in.
    expect(made).toMatch(/^slink-upload-/)
    socket.destroy()
    await closed
    await within(100, () => entries().length === 0)
    expect(entries()).toEqual([])
    expect(await t.services.db.kysely.selectFrom('imports').select('id').execute()).toEqual([])
  })

  it('a dashboard upload whose client goes away mid-body leaves no temporary file', async () => {
    const csrf = csrfOf((await alice.get('/dashboard/imports')).body)
    const cookie = [...alice.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const { socket, closed } = await open()
    const made = await startUpload(
      socket,
      requestHead('/dashboard/imports', { Cookie: cookie }) +
        partsBefore({ _csrf: csrf, source: 'csv', dry_run: '1' }),
    )
    expect(made).toMatch(/^slink-upload-/)
    socket.destroy()
    await closed
    await within(100, () => entries().length === 0)
    expect(entries()).toEqual([])
  })

  it('a third upload of one user while two are still coming is a 429 before its body is read', async () => {
    const head = () =>
      requestHead('/api/v1/imports', { Authorization: `Bearer ${KEY_A}` }) +
      partsBefore({ source: 'csv', dry_run: '1' })
    const first = await open()
    await startUpload(first.socket, head(), 1)
    const second = await open()
    await startUpload(second.socket, head(), 2)
    const third = await open()
    const answer = answerHead(third.socket)
    third.socket.write(head())
    third.socket.write(CHUNK)
    const lines = (await answer).split('\r\n')
    expect(lines[0]).toBe('HTTP/1.1 429 Too Many Requests')
    expect(lines).toContain('connection: close')
    await third.closed
    expect(entries()).toHaveLength(2)
    for (const { socket, closed } of [first, second]) {
      socket.destroy()
      await closed
    }
    await within(100, () => entries().length === 0)
    expect(await t.services.db.kysely.selectFrom('imports').select('id').execute()).toEqual([])
  })

  it('an API upload without a valid key is a 401 before its body is read', async () => {
    const { socket, closed } = await open()
    const answer = answerHead(socket)
    socket.write(
      requestHead('/api/v1/imports', { Authorization: 'Bearer not-a-key' }) +
        partsBefore({ source: 'csv' }),
    )
    socket.write(CHUNK)
    const head = (await answer).split('\r\n')
    expect(head[0]).toBe('HTTP/1.1 401 Unauthorized')
    expect(head).toEqual(expect.arrayContaining(['www-authenticate: Bearer', 'connection: close']))
    await closed
    expect(entries()).toEqual([])
    socket.destroy()
  })

  it('a dashboard upload without a session is sent to sign in before its body is read', async () => {
    const { socket, closed } = await open()
    const answer = answerHead(socket)
    socket.write(requestHead('/dashboard/imports', {}) + partsBefore({ source: 'csv' }))
    socket.write(CHUNK)
    // Answered with most of the announced body never sent, and the connection is closed.
    expect((await answer).split('\r\n')).toEqual(
      expect.arrayContaining([
        'HTTP/1.1 303 See Other',
        'location: /login',
        'cache-control: no-store',
        'connection: close',
      ]),
    )
    await closed
    expect(entries()).toEqual([])
    socket.destroy()
  })

  it('a dashboard upload whose file comes before a valid CSRF token is refused before it is written', async () => {
    const cookie = [...alice.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const forms: Record<string, string>[] = [{ source: 'csv' }, { _csrf: 'wrong', source: 'csv' }]
    for (const fields of forms) {
      const { socket, closed } = await open()
      const answer = answerHead(socket)
      socket.write(requestHead('/dashboard/imports', { Cookie: cookie }) + partsBefore(fields))
      socket.write(CHUNK)
      const head = (await answer).split('\r\n')
      expect(head[0]).toBe('HTTP/1.1 403 Forbidden')
      expect(head).toContain('connection: close')
      await closed
      expect(entries()).toEqual([])
      socket.destroy()
    }
  })
})
