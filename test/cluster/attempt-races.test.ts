/**
 * Attempts sent at once to a real `slink serve` over loopback, each on a connection of its own:
 * every limit counts an attempt before it checks it, so of many wrong passwords sent together
 * exactly the limit's number are checked and the rest are refused unchecked, and the right
 * password sent after them is refused too. In one process, across two workers (counted by the
 * cluster primary) and with the counters in Redis. Every run uses client addresses of its own
 * (X-Forwarded-For), so counters left in Redis by another run do not meet this one's.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve, type ServeProcess } from '../support/cli.js'
import { REDIS_URL, redisCheck } from '../support/cluster.js'
import { csrfOf } from '../support/dashboard.js'
import { API_KEY, BROWSER_UA, HOST, send, type Reply } from '../support/server.js'

const redis = await redisCheck()

/** A client address no other run uses. */
const runPrefix = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`
let addresses = 0
const newAddress = () => `${runPrefix}::${(++addresses).toString(16)}`

const MODES: { name: string; args: string[]; env: Record<string, string>; skip: boolean }[] = [
  { name: 'one process', args: ['--workers', '1'], env: {}, skip: false },
  { name: 'two workers without Redis', args: ['--workers', '2'], env: {}, skip: false },
  {
    name: 'Redis',
    args: ['--workers', '1'],
    env: { REDIS_URL: `${REDIS_URL}/11` },
    skip: !redis.ok,
  },
]

/** How many replies had each status, e.g. `{ 200: 10, 429: 20 }`. */
function tally(replies: Reply[]): Record<number, number> {
  const counts: Record<number, number> = {}
  for (const reply of replies) counts[reply.status] = (counts[reply.status] ?? 0) + 1
  return counts
}

/** The `name=value` of the first Set-Cookie line naming `name`. */
function cookieOf(reply: Reply, name: string): string {
  const header = reply.headers['set-cookie']
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header]
  const line = lines.find((l) => l.startsWith(`${name}=`))
  if (!line) throw new Error(`no ${name} cookie in ${JSON.stringify(header)}`)
  return line.split(';')[0]!
}

describe.each(MODES)('attempts sent at once ($name)', (mode) => {
  let dir: string
  let server: ServeProcess
  let port: number
  /** The first user's one-time link, printed at start. */
  let firstLink: string

  const post = (path: string, form: Record<string, string>, ip: string, cookie?: string) =>
    send(port, path, {
      method: 'POST',
      headers: {
        'user-agent': BROWSER_UA,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': ip,
        ...(cookie ? { cookie } : {}),
      },
      body: new URLSearchParams(form).toString(),
    })
  const get = (path: string, ip: string, cookie?: string) =>
    send(port, path, {
      headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
    })
  const all = <T>(n: number, make: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => make(i)))

  /** A CSRF cookie and its token, from the sign-in form. */
  async function anonymousForm(ip: string): Promise<{ cookie: string; csrf: string }> {
    const page = await get('/login', ip)
    expect(page.status).toBe(200)
    return { cookie: cookieOf(page, 'slink_csrf'), csrf: csrfOf(page.body) }
  }

  async function signIn(password: string, ip: string): Promise<Reply> {
    const form = await anonymousForm(ip)
    return post('/login', { _csrf: form.csrf, email: 'admin@localhost', password }, ip, form.cookie)
  }

  beforeAll(async () => {
    if (mode.skip) return
    if (mode.env.REDIS_URL) {
      // The Account page's limit is counted per user id, and every run's first user is 1: a
      // run within the last 15 minutes would have left its count in this Redis database.
      const client = new Redis(mode.env.REDIS_URL)
      await client.del('slink:password-changes:user:1')
      client.disconnect()
    }
    dir = mkdtempSync(join(tmpdir(), 'slink-races-'))
    server = serve(
      {
        DATABASE_URL: `sqlite:${join(dir, 'races.db')}`,
        PORT: '0',
        PUBLIC_URL: `http://${HOST}`,
        INITIAL_API_KEY: API_KEY,
        API_RATE_LIMIT: '0',
        TITLE_FETCH: 'false',
        TRUST_PROXY: 'true',
        ...mode.env,
      },
      mode.args,
    )
    port = Number((await server.waitFor(/listening on port (\d+)/))[1])
    firstLink = (await server.waitFor(/http:\/\/short\.test(\/password\/[A-Za-z0-9_-]{43})/))[1]!
    const ip = newAddress()
    const page = await get(firstLink, ip)
    expect(page.status).toBe(200)
    const set = await post(
      firstLink,
      {
        _csrf: csrfOf(page.body),
        password: 'the admin password',
        password_confirmation: 'the admin password',
      },
      ip,
      cookieOf(page, 'slink_csrf'),
    )
    expect(set.status).toBe(303)
  }, 60_000)

  afterAll(async () => {
    if (mode.skip) return
    server?.kill('SIGTERM')
    await server?.exited
    rmSync(dir, { recursive: true, force: true })
  })

  async function createLink(form: Record<string, string>): Promise<void> {
    const created = await send(port, '/api/v1/links', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${API_KEY}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ domain_id: '1', ...form }).toString(),
    })
    expect(created.status).toBe(201)
  }

  it.skipIf(mode.skip)(
    'checks 10 of 30 wrong link passwords, then refuses the right one',
    async () => {
      const alias = `guarded${randomBytes(4).toString('hex')}`
      await createLink({ url: 'https://example.com/p', alias, password: 'right-one' })
      const ip = newAddress()
      const replies = await all(30, (i) => post(`/${alias}`, { password: `wrong ${i}` }, ip))
      expect(tally(replies)).toEqual({ 200: 10, 429: 20 })
      expect(replies.filter((r) => r.body.includes('The password is not correct.'))).toHaveLength(
        10,
      )
      const right = await post(`/${alias}`, { password: 'right-one' }, ip)
      expect(right.status).toBe(429)
      expect(right.headers['set-cookie']).toBeUndefined()
      // Another visitor is not affected.
      expect((await post(`/${alias}`, { password: 'right-one' }, newAddress())).status).toBe(303)
    },
  )

  it.skipIf(mode.skip)(
    'checks 10 of 30 wrong statistics passwords, then refuses the right one',
    async () => {
      const alias = `stats${randomBytes(4).toString('hex')}`
      await createLink({
        url: 'https://example.com/s',
        alias,
        privacy: '2',
        privacy_password: 'stats-pw',
      })
      const ip = newAddress()
      const replies = await all(30, (i) => post(`/${alias}/stats`, { password: `nope ${i}` }, ip))
      expect(tally(replies)).toEqual({ 200: 10, 429: 20 })
      expect((await post(`/${alias}/stats`, { password: 'stats-pw' }, ip)).status).toBe(429)
      expect((await post(`/${alias}/stats`, { password: 'stats-pw' }, newAddress())).status).toBe(
        303,
      )
    },
  )

  it.skipIf(mode.skip)(
    'checks 5 of 30 wrong sign-ins from one address, which cannot lock the owner out',
    async () => {
      const ip = newAddress()
      const form = await anonymousForm(ip)
      const replies = await all(30, (i) =>
        post(
          '/login',
          { _csrf: form.csrf, email: 'admin@localhost', password: `guess ${i}` },
          ip,
          form.cookie,
        ),
      )
      expect(tally(replies)).toEqual({ 422: 5, 429: 25 })
      const blocked = await signIn('the admin password', ip)
      expect(blocked.status).toBe(429)
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
      // The owner, from their own address, signs in.
      const owner = await signIn('the admin password', newAddress())
      expect(owner.status).toBe(303)
      expect(owner.headers.location).toBe('/dashboard')
    },
  )

  it.skipIf(mode.skip)(
    'checks 5 of 20 wrong current passwords on the Account page, then refuses the right one',
    async () => {
      const ip = newAddress()
      const session = cookieOf(await signIn('the admin password', ip), 'slink_session')
      const account = await get('/dashboard/account', ip, session)
      expect(account.status).toBe(200)
      const csrf = csrfOf(account.body)
      const change = (current: string) =>
        post(
          '/dashboard/account/password',
          {
            _csrf: csrf,
            current_password: current,
            password: 'a new admin password',
            password_confirmation: 'a new admin password',
          },
          ip,
          session,
        )
      const replies = await all(20, (i) => change(`not it ${i}`))
      expect(tally(replies)).toEqual({ 422: 5, 429: 15 })
      const blocked = await change('the admin password')
      expect(blocked.status).toBe(429)
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
      expect(blocked.body).toContain('Too many wrong current passwords. Try again in 15 minutes.')
      // Nothing changed: the old password still signs in.
      expect((await signIn('the admin password', newAddress())).status).toBe(303)
    },
  )
})
