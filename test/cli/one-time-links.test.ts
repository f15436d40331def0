/**
 * The one-time link a real `slink serve` prints at its first start, after the password has been
 * set through a newer link (`slink user reset-link`) and changed again on the Account page: the
 * first link opens nothing, makes no session and leaves the owner's session alone.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve, slink, type ServeProcess } from '../support/cli.js'
import { csrfOf } from '../support/dashboard.js'
import { API_KEY, HOST, send, type Reply } from '../support/server.js'

function cookieOf(reply: Reply, name: string): string {
  const header = reply.headers['set-cookie']
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header]
  const line = lines.find((l) => l.startsWith(`${name}=`))
  if (!line) throw new Error(`no ${name} cookie in ${JSON.stringify(header)}`)
  return line.split(';')[0]!
}

describe('the first start’s one-time link', () => {
  let dir: string
  let env: Record<string, string>
  let server: ServeProcess
  let port: number

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slink-links-'))
    env = { DATABASE_URL: `sqlite:${join(dir, 'links.db')}`, PUBLIC_URL: `http://${HOST}` }
    server = serve({ ...env, PORT: '0', INITIAL_API_KEY: API_KEY, TITLE_FETCH: 'false' })
    port = Number((await server.waitFor(/listening on port (\d+)/))[1])
  }, 60_000)

  afterAll(async () => {
    server?.kill('SIGTERM')
    await server?.exited
    rmSync(dir, { recursive: true, force: true })
  })

  const get = (path: string, cookie?: string) =>
    send(port, path, cookie ? { headers: { cookie } } : {})
  const post = (path: string, form: Record<string, string>, cookie: string) =>
    send(port, path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams(form).toString(),
    })
  const setPassword = async (path: string, password: string) => {
    const form = await get('/login')
    return post(
      path,
      { _csrf: csrfOf(form.body), password, password_confirmation: password },
      cookieOf(form, 'slink_csrf'),
    )
  }

  it('opens nothing once a newer link and the Account page have set the password', async () => {
    const first = (await server.waitFor(/http:\/\/short\.test(\/password\/[A-Za-z0-9_-]{43})/))[1]!
    const reset = await slink(['user', 'reset-link', '--email', 'admin@localhost'], env)
    expect(reset.status).toBe(0)
    const second = new URL(reset.stdout.trim()).pathname
    const set = await setPassword(second, 'the owner password')
    expect(set.status).toBe(303)
    const session = cookieOf(set, 'slink_session')
    const account = await get('/dashboard/account', session)
    expect(account.status).toBe(200)
    const changed = await post(
      '/dashboard/account/password',
      {
        _csrf: csrfOf(account.body),
        current_password: 'the owner password',
        password: 'the owner password 2',
        password_confirmation: 'the owner password 2',
      },
      session,
    )
    expect(changed.status).toBe(303)

    expect((await get(first)).status).toBe(410)
    const taken = await setPassword(first, 'the attacker password')
    expect(taken.status).toBe(410)
    expect(taken.headers['set-cookie']).toBeUndefined()
    expect(taken.body).toContain('<h1>Link no longer valid</h1>')
    // The owner's session goes on; the owner's password is the one that signs in.
    expect((await get('/dashboard', session)).status).toBe(200)
    const form = await get('/login')
    const signIn = await post(
      '/login',
      { _csrf: csrfOf(form.body), email: 'admin@localhost', password: 'the owner password 2' },
      cookieOf(form, 'slink_csrf'),
    )
    expect(signIn.status).toBe(303)
  })
})
