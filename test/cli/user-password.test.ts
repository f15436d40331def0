/**
 * `slink user password` (the password from standard input) and `slink user reset-link` (a new
 * one-time link on PUBLIC_URL), in-process; once as the real command, reading a real pipe.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/connect.js'
import { createServices, type Services } from '../../src/composition/services.js'
import { slink, slinkProcess } from '../support/cli.js'

let dir: string
let env: Record<string, string>

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slink-cli-user-'))
  env = { DATABASE_URL: `sqlite:${join(dir, 'cli.db')}` }
  expect((await slink(['user', 'create', '--email', 'carol@example.com'], env)).status).toBe(0)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function withServices<T>(read: (services: Services) => Promise<T>): Promise<T> {
  const db = openDatabase({ kind: 'sqlite', path: join(dir, 'cli.db') })
  try {
    return await read(createServices(db, { titleFetch: false }))
  } finally {
    await db.close()
  }
}

describe('slink user password', () => {
  it('sets the password read from standard input and ends the user’s sessions', async () => {
    const session = await withServices(async (s) => {
      const user = await s.accounts.findByEmail('carol@example.com')
      return s.sessions.start(user.id)
    })
    const result = slinkProcess(['user', 'password', '--email', 'carol@example.com'], env, {
      input: 'a new password 1\nignored second line\n',
    })
    expect(result).toEqual({
      status: 0,
      stdout: 'password set for carol@example.com; their sessions have ended\n',
      stderr: '',
    })
    await withServices(async (s) => {
      expect(await s.accounts.verify('carol@example.com', 'a new password 1')).not.toBeNull()
      expect(await s.sessions.resume(session.id)).toBeNull()
    })
  })

  it('refuses a short password, an unknown email and a missing --email, changing nothing', async () => {
    expect(
      await slink(['user', 'password', '--email', 'carol@example.com'], env, { input: 'short\n' }),
    ).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: The password must be at least 8 characters.\n',
    })
    expect(
      await slink(['user', 'password', '--email', 'nobody@example.com'], env, {
        input: 'long enough password\n',
      }),
    ).toEqual({ status: 1, stdout: '', stderr: 'slink: no user with email nobody@example.com\n' })
    expect(await slink(['user', 'password'], env, { input: 'long enough password\n' })).toEqual({
      status: 2,
      stdout: '',
      stderr: 'slink: --email is required\n',
    })
    await withServices(async (s) => {
      expect((await s.accounts.findByEmail('carol@example.com')).password_hash).toBeNull()
    })
  })

  it('cancels the user’s outstanding one-time link', async () => {
    const link = await slink(['user', 'reset-link', '--email', 'carol@example.com'], env)
    const token = /\/password\/([A-Za-z0-9_-]{43})\n$/.exec(link.stdout)![1]!
    await withServices(async (s) => {
      expect((await s.accounts.tokenUser(token))?.email).toBe('carol@example.com')
    })
    const set = await slink(['user', 'password', '--email', 'carol@example.com'], env, {
      input: 'a new password 2\n',
    })
    expect(set.status).toBe(0)
    await withServices(async (s) => {
      expect(await s.accounts.tokenUser(token)).toBeNull()
      expect(await s.accounts.useToken(token, 'taken over password')).toBeNull()
      expect(await s.accounts.verify('carol@example.com', 'a new password 2')).not.toBeNull()
    })
  })
})

describe('slink user reset-link', () => {
  it('prints a one-time link on PUBLIC_URL that opens the password page for that user', async () => {
    const result = await slink(['user', 'reset-link', '--email', 'CAROL@example.com'], {
      ...env,
      PUBLIC_URL: 'https://sho.rt',
    })
    expect(result.status).toBe(0)
    expect(result.stderr).toBe('')
    const match = /^https:\/\/sho\.rt\/password\/([A-Za-z0-9_-]{43})\n$/.exec(result.stdout)
    expect(match).not.toBeNull()
    await withServices(async (s) => {
      expect((await s.accounts.tokenUser(match![1]!))?.email).toBe('carol@example.com')
    })
    // Each call prints a new link; the earlier one stays valid until used or expired.
    const again = await slink(['user', 'reset-link', '--email', 'carol@example.com'], env)
    expect(again.stdout).toMatch(/^http:\/\/localhost:8080\/password\/[A-Za-z0-9_-]{43}\n$/)
    expect(again.stdout).not.toContain(match![1]!)
    // Only the newest link works.
    await withServices(async (s) => {
      expect(await s.accounts.tokenUser(match![1]!)).toBeNull()
    })
  })

  it('refuses an unknown email', async () => {
    expect(await slink(['user', 'reset-link', '--email', 'nobody@example.com'], env)).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: no user with email nobody@example.com\n',
    })
  })
})
