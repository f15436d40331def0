import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultWorkers } from '../../src/cli/commands.js'
import { serve } from '../support/cli.js'

let dir: string
let env: Record<string, string>

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slink-serve-'))
  env = { DATABASE_URL: `sqlite:${join(dir, 'serve.db')}`, PORT: '0' }
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const LISTENING = /listening on port (\d+)/

describe('slink serve', () => {
  it('creates the first user on an empty database, prints its key once, and serves with it', async () => {
    const first = serve(env)
    const [, port] = await first.waitFor(LISTENING)
    const key = first.output().match(/shown only this once:\n(slk_[A-Za-z0-9]{40})\n/)?.[1]
    expect(key).toBeDefined()
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/account`, {
      headers: { authorization: `Bearer ${key}` },
    })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: { email: string } }).data.email).toBe('admin@localhost')
    // A one-time link to set the first user's password, on PUBLIC_URL (here the default).
    expect(first.output()).toMatch(
      /\nSet its password and sign in to the dashboard \(one-time link, valid 24 hours\):\nhttp:\/\/localhost:0\/password\/[A-Za-z0-9_-]{43}\n/,
    )
    first.kill()
    expect(await first.exited).toBe(0)

    const second = serve(env)
    await second.waitFor(LISTENING)
    expect(second.output()).not.toMatch(/API key/)
    expect(second.output()).not.toMatch(/password/)
    second.kill()
    expect(await second.exited).toBe(0)
  })

  it('prints the one-time link only once the port accepts connections, with one or two workers', async () => {
    for (const workers of ['1', '2']) {
      const free = createServer().listen(0, '127.0.0.1')
      await new Promise((resolve) => free.once('listening', resolve))
      const port = (free.address() as { port: number }).port
      await new Promise((resolve) => free.close(resolve))
      rmSync(join(dir, 'serve.db'), { force: true })
      const server = serve({ ...env, PORT: String(port) }, ['--workers', workers])
      await server.waitFor(/\/password\/[A-Za-z0-9_-]{43}\n/)
      // Asked the moment the link is printed: the service answers.
      const res = await fetch(`http://127.0.0.1:${port}/health`)
      expect(res.status).toBe(200)
      server.kill()
      expect(await server.exited).toBe(0)
    }
  })

  it('runs one process on SQLite unless told otherwise, and one per core on PostgreSQL', async () => {
    // A cluster's worker names itself in /health: seen with --workers 2 first.
    for (const [args, body] of [
      [['--workers', '2'], /^\{"status":"ok","worker":[12]\}$/],
      [[], /^\{"status":"ok"\}$/],
    ] as const) {
      rmSync(join(dir, 'serve.db'), { force: true })
      const server = serve(env, [...args])
      const [, port] = await server.waitFor(LISTENING, 90_000)
      const res = await fetch(`http://127.0.0.1:${port}/health`)
      expect(res.status).toBe(200)
      expect(await res.text()).toMatch(body)
      server.kill()
      expect(await server.exited).toBe(0)
    }
    expect(defaultWorkers({ kind: 'sqlite', path: 'slink.db' }, 8)).toBe(1)
    expect(defaultWorkers({ kind: 'postgres', url: 'postgres://localhost/slink' }, 8)).toBe(8)
    // Two servers, one of them a cluster, on a machine that may be busy.
  }, 120_000)

  it('uses INITIAL_API_KEY for the first user and prints no key', async () => {
    const server = serve({
      ...env,
      INITIAL_API_KEY: 'initial-key-0123456789abcdefghijklmn',
      PUBLIC_URL: 'https://sho.rt',
    })
    const [, port] = await server.waitFor(LISTENING)
    expect(server.output()).not.toMatch(/API key/)
    expect(server.output()).not.toContain('initial-key-0123456789abcdefghijklmn')
    // The one-time link is printed all the same, on PUBLIC_URL.
    expect(server.output()).toMatch(/\nhttps:\/\/sho\.rt\/password\/[A-Za-z0-9_-]{43}\n/)
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/account`, {
      headers: { authorization: 'Bearer initial-key-0123456789abcdefghijklmn' },
    })
    expect(res.status).toBe(200)
    server.kill()
    expect(await server.exited).toBe(0)
  })

  it('answers a request in flight when SIGTERM arrives twice, then exits 0', async () => {
    const server = serve({ ...env, INITIAL_API_KEY: 'initial-key-0123456789abcdefghijklmn' })
    const [, port] = await server.waitFor(LISTENING)
    // A slow client: the body arrives after the signals, so the request is in flight during shutdown.
    const { request } = await import('node:http')
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: Number(port),
          method: 'POST',
          path: '/api/v1/spaces',
          headers: {
            authorization: 'Bearer initial-key-0123456789abcdefghijklmn',
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': '10',
            // The server's 100 Continue says it has read the headers: the request is in flight.
            expect: '100-continue',
          },
        },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.write('name=')
      req.on('continue', () => {
        server.kill()
        server.kill()
        // The rest of the body only once the service says it is stopping.
        server.waitFor(/SIGTERM received/).then(() => req.end('Inbox'), reject)
      })
    })
    expect(await answer).toBe(201)
    expect(await server.exited).toBe(0)
    expect(server.output()).toMatch(
      /^SIGTERM received: finishing in-flight requests and stopping$/m,
    )
  })

  it('stops at once with one line when the configuration is bad', async () => {
    const server = serve({ ...env, PUBLIC_URL: 'ftp://example.com' })
    expect(await server.exited).toBe(1)
    expect(server.output()).toBe(
      'slink: PUBLIC_URL must be an http or https URL, got "ftp://example.com"\n',
    )
  })
})
