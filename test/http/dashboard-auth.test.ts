/**
 * Signing in to the dashboard: sessions and their cookie, sign-out, idle and absolute timeouts,
 * CSRF tokens on every change, sign-in limits, one-time password links, password changes that
 * end other sessions, roles and tenancy. The whole app in-process, on the default domain.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ABSOLUTE_TIMEOUT_MS, IDLE_TIMEOUT_MS } from '../../src/sessions/service.js'
import { createTestApp, type TestApp } from '../support/app.js'
import { csrfOf, FormClient, withoutNonce } from '../support/dashboard.js'
import { createLink, createSpace, expectStatus } from './helpers.js'

const PASSWORD_A = 'correct horse battery'
const PASSWORD_B = 'bob password 123'
const SESSION_COOKIE =
  /^slink_session=([A-Za-z0-9_-]{43}); Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/

describe('dashboard sign-in', () => {
  let t: TestApp
  let clock: number

  beforeEach(async () => {
    clock = Date.UTC(2026, 5, 1, 12)
    t = await createTestApp({}, { now: () => clock })
    await t.services.accounts.setPassword(t.userA, PASSWORD_A)
    await t.services.accounts.setPassword(t.userB, PASSWORD_B)
  })
  afterEach(() => t.close())

  const client = (ip?: string) => new FormClient(t.app, ip)

  it('shows the sign-in form with a CSRF cookie, under a CSP that forbids framing', async () => {
    const res = await client().get('/login')
    expectStatus(res, 200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['set-cookie']).toMatch(
      /^slink_csrf=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/,
    )
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toContain('unsafe')
    expect(res.body).toContain('<form method="post" action="/login">')
    expect(res.body).toContain('name="email"')
    expect(res.body).toContain('name="password"')
  })

  it('signs in with the right password: a session cookie, then the overview', async () => {
    const c = client()
    const res = await c.signIn('A@example.com', PASSWORD_A)
    expectStatus(res, 303)
    expect(res.headers.location).toBe('/dashboard')
    expect(res.headers['set-cookie']).toMatch(SESSION_COOKIE)
    const overview = await c.get('/dashboard')
    expectStatus(overview, 200)
    expect(overview.body).toContain('<h1>Overview</h1>')
    expect(overview.body).toContain('Alice')
    expect(String(overview.headers['content-security-policy'])).toContain("frame-ancestors 'none'")
    // Signed in, the sign-in page sends on to the dashboard.
    const again = await c.get('/login')
    expectStatus(again, 303)
    expect(again.headers.location).toBe('/dashboard')
  })

  it('marks the cookies Secure when PUBLIC_URL is https', async () => {
    const secure = await createTestApp({ PUBLIC_URL: 'https://short.test' })
    try {
      await secure.services.accounts.setPassword(secure.userA, PASSWORD_A)
      const c = new FormClient(secure.app)
      const form = await c.get('/login')
      expect(form.headers['set-cookie']).toMatch(/; HttpOnly; SameSite=Lax; Secure$/)
      const res = await c.signIn('a@example.com', PASSWORD_A)
      expectStatus(res, 303)
      expect(res.headers['set-cookie']).toMatch(
        /^slink_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
      )
    } finally {
      await secure.close()
    }
  })

  it('answers a wrong email and a wrong password alike', async () => {
    const c = client()
    const timed = async (email: string, password: string) => {
      const started = performance.now()
      const res = await c.signIn(email, password)
      return { res, ms: performance.now() - started }
    }
    const unknown = await timed('nobody@example.com', PASSWORD_A)
    const wrong = await timed('a@example.com', 'not the password')
    expectStatus(unknown.res, 422)
    expectStatus(wrong.res, 422)
    expect(unknown.res.headers['set-cookie']).toBeUndefined()
    expect(wrong.res.headers['set-cookie']).toBeUndefined()
    const same = (body: string, email: string) => withoutNonce(body).replace(email, 'EMAIL')
    expect(same(unknown.res.body, 'nobody@example.com')).toBe(same(wrong.res.body, 'a@example.com'))
    expect(wrong.res.body).toContain('The email or password is not correct.')
    // Both cost a password hash: neither answers in a fraction of the other's time (medians of
    // five, taken in turns, so that the load of a busy machine falls on both alike).
    const unknownTimes: number[] = []
    const wrongTimes: number[] = []
    for (let i = 0; i < 5; i++) {
      unknownTimes.push((await timed(`nobody${i}@example.com`, PASSWORD_A)).ms)
      wrongTimes.push((await timed('b@example.com', `not it ${i}`)).ms)
    }
    const median = (times: number[]) => [...times].sort((x, y) => x - y)[2]!
    expect(median(unknownTimes)).toBeGreaterThan(median(wrongTimes) / 4)
    expect(median(wrongTimes)).toBeGreaterThan(median(unknownTimes) / 4)
    // A user without a password (or a disabled one) fails the same way.
    await t.services.db.kysely.updateTable('users').set({ disabled: 1 }).execute()
    const disabled = await c.signIn('a@example.com', PASSWORD_A)
    expectStatus(disabled, 422)
    expect(same(disabled.body, 'a@example.com')).toBe(same(wrong.res.body, 'a@example.com'))
  })

  it('keeps people who are not signed in out of the dashboard', async () => {
    for (const path of ['/dashboard', '/dashboard/account', '/dashboard/admin']) {
      const res = await client().get(path)
      expectStatus(res, 303)
      expect(res.headers.location).toBe('/login')
    }
    const forged = new FormClient(t.app)
    forged.cookies.set('slink_session', 'A'.repeat(43))
    expect((await forged.get('/dashboard')).headers.location).toBe('/login')
  })

  it('signs out: the session ends and its cookie is cleared', async () => {
    const c = client()
    await c.signIn('a@example.com', PASSWORD_A)
    const stolen = c.cookies.get('slink_session')!
    const page = await c.get('/dashboard')
    const res = await c.post('/logout', { _csrf: csrfOf(page.body) })
    expectStatus(res, 303)
    expect(res.headers.location).toBe('/login?signed-out')
    expect(res.headers['set-cookie']).toBe(
      'slink_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
    )
    expect((await c.get('/dashboard')).headers.location).toBe('/login')
    // The old session id is worth nothing now.
    const replay = new FormClient(t.app)
    replay.cookies.set('slink_session', stolen)
    expect((await replay.get('/dashboard')).headers.location).toBe('/login')
    expect((await c.get('/login?signed-out')).body).toContain('You have signed out.')
  })

  it('gives a new session id at every sign-in and ends the one before', async () => {
    const c = client()
    await c.signIn('a@example.com', PASSWORD_A)
    const first = c.cookies.get('slink_session')!
    // A sign-in form posted from a browser that still holds a session (another tab, say).
    c.cookies.delete('slink_session')
    const form = await c.get('/login')
    c.cookies.set('slink_session', first)
    const res = await c.post('/login', {
      _csrf: csrfOf(form.body),
      email: 'b@example.com',
      password: PASSWORD_B,
    })
    expectStatus(res, 303)
    const second = c.cookies.get('slink_session')!
    expect(second).not.toBe(first)
    const old = new FormClient(t.app)
    old.cookies.set('slink_session', first)
    expect((await old.get('/dashboard')).headers.location).toBe('/login')
  })

  it('ends a session idle for 12 hours, and any session 30 days after sign-in', async () => {
    const c = client()
    await c.signIn('a@example.com', PASSWORD_A)
    clock += IDLE_TIMEOUT_MS - 60_000
    expectStatus(await c.get('/dashboard'), 200)
    clock += IDLE_TIMEOUT_MS - 60_000
    expectStatus(await c.get('/dashboard'), 200)
    clock += IDLE_TIMEOUT_MS
    const idle = await c.get('/dashboard')
    expectStatus(idle, 303)
    expect(idle.headers.location).toBe('/login')

    const busy = client()
    await busy.signIn('a@example.com', PASSWORD_A)
    const start = clock
    while (clock - start < ABSOLUTE_TIMEOUT_MS - IDLE_TIMEOUT_MS) {
      clock += IDLE_TIMEOUT_MS / 2
      expectStatus(await busy.get('/dashboard'), 200)
    }
    clock = start + ABSOLUTE_TIMEOUT_MS
    expect((await busy.get('/dashboard')).headers.location).toBe('/login')
  })

  it('refuses a change without a valid CSRF token (403) and changes nothing', async () => {
    const c = client()
    await c.signIn('a@example.com', PASSWORD_A)
    const change = {
      current_password: PASSWORD_A,
      password: 'a new password',
      password_confirmation: 'a new password',
    }
    for (const token of [
      undefined,
      '',
      'x'.repeat(43),
      csrfOf((await client().get('/login')).body),
    ]) {
      const res = await c.post('/dashboard/account/password', {
        ...change,
        ...(token === undefined ? {} : { _csrf: token }),
      })
      expectStatus(res, 403)
      expect(res.body).toContain('<h1>Form expired</h1>')
      expect(res.body).toContain('Nothing was changed.')
    }
    expect(await t.services.accounts.verify('a@example.com', PASSWORD_A)).not.toBeNull()
    expect(await t.services.accounts.verify('a@example.com', 'a new password')).toBeNull()
    // Sign-out needs the token too: without it, the session lives on.
    expectStatus(await c.post('/logout', {}), 403)
    expectStatus(await c.get('/dashboard'), 200)
    // So does sign-in: a form without the cookie's token signs nobody in.
    const blind = client()
    const res = await blind.post('/login', { email: 'a@example.com', password: PASSWORD_A })
    expectStatus(res, 403)
    expect(res.headers['set-cookie']).toBeUndefined()
    const other = client()
    await other.get('/login')
    const wrong = await other.post('/login', {
      _csrf: csrfOf((await client().get('/login')).body),
      email: 'a@example.com',
      password: PASSWORD_A,
    })
    expectStatus(wrong, 403)
  })

  it('limits failed sign-ins per account and address (429 with Retry-After), never locking the owner out', async () => {
    const c = client('192.0.2.20')
    for (let i = 0; i < 5; i++) expectStatus(await c.signIn('a@example.com', `wrong ${i}`), 422)
    const blocked = await c.signIn('a@example.com', PASSWORD_A)
    expectStatus(blocked, 429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(900)
    expect(blocked.body).toContain('<h1>Too many attempts</h1>')
    expect(blocked.headers['set-cookie']).toBeUndefined()
    expectStatus(await client('192.0.2.20').signIn('A@EXAMPLE.COM', PASSWORD_A), 429)
    // The owner, from another address, signs in: failures lock out only the address that failed.
    expectStatus(await client('192.0.2.21').signIn('A@EXAMPLE.COM', PASSWORD_A), 303)
    // The failing address may still sign in to other accounts (its own limit is 20).
    expectStatus(await client('192.0.2.20').signIn('b@example.com', PASSWORD_B), 303)
  })

  it('counts only failed sign-ins: a right password gives its attempt back', async () => {
    const c = client('192.0.2.25')
    for (let i = 0; i < 4; i++) expectStatus(await c.signIn('a@example.com', `wrong ${i}`), 422)
    for (let i = 0; i < 3; i++)
      expectStatus(await client('192.0.2.25').signIn('a@example.com', PASSWORD_A), 303)
    expectStatus(await c.signIn('a@example.com', 'wrong 5'), 422)
    expectStatus(await c.signIn('a@example.com', PASSWORD_A), 429)
  })

  it('limits failed sign-ins per address', async () => {
    const c = client('192.0.2.30')
    for (let i = 0; i < 20; i++) expectStatus(await c.signIn(`nobody${i}@example.com`, 'x'), 422)
    const blocked = await c.signIn('b@example.com', PASSWORD_B)
    expectStatus(blocked, 429)
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/)
    expectStatus(await client('192.0.2.31').signIn('b@example.com', PASSWORD_B), 303)
  })

  it('sets a password through a one-time link, which works once and for 24 hours', async () => {
    const token = await t.services.accounts.issueToken(t.userB)
    const c = client()
    const page = await c.get(`/password/${token}`)
    expectStatus(page, 200)
    expect(page.body).toContain('b@example.com')
    expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'none'")
    // A mismatch is shown, and the link stays usable.
    const mismatch = await c.post(`/password/${token}`, {
      _csrf: csrfOf(page.body),
      password: 'new bob password',
      password_confirmation: 'something else',
    })
    expectStatus(mismatch, 422)
    expect(mismatch.body).toContain('The passwords do not match.')
    const short = await c.post(`/password/${token}`, {
      _csrf: csrfOf(page.body),
      password: 'short',
      password_confirmation: 'short',
    })
    expectStatus(short, 422)
    expect(short.body).toContain('The password must be at least 8 characters.')
    const done = await c.post(`/password/${token}`, {
      _csrf: csrfOf(page.body),
      password: 'new bob password',
      password_confirmation: 'new bob password',
    })
    expectStatus(done, 303)
    expect(done.headers.location).toBe('/dashboard')
    expect(done.headers['set-cookie']).toMatch(SESSION_COOKIE)
    expectStatus(await c.get('/dashboard'), 200)
    expect(await t.services.accounts.verify('b@example.com', 'new bob password')).not.toBeNull()
    // Used: gone.
    expectStatus(await client().get(`/password/${token}`), 410)
    const reuse = await c.post(`/password/${token}`, {
      _csrf: csrfOf(page.body),
      password: 'third password!',
      password_confirmation: 'third password!',
    })
    expectStatus(reuse, 410)
    expect(await t.services.accounts.verify('b@example.com', 'third password!')).toBeNull()

    const later = await t.services.accounts.issueToken(t.userB)
    clock += 24 * 60 * 60 * 1000 - 1000
    expectStatus(await client().get(`/password/${later}`), 200)
    clock += 1000
    const expired = await client().get(`/password/${later}`)
    expectStatus(expired, 410)
    expect(expired.body).toContain('has expired or has been used')
    expectStatus(await client().get('/password/not-a-token'), 410)
  })

  it('cancels a one-time link when a newer one is issued, and every one when the password is set', async () => {
    const setThrough = async (token: string, password: string) => {
      const c = client('192.0.2.50')
      // The sign-in form's CSRF token serves every form shown before sign-in.
      const page = await c.get('/login')
      return c.post(`/password/${token}`, {
        _csrf: csrfOf(page.body),
        password,
        password_confirmation: password,
      })
    }
    // Only the newest link works.
    const first = await t.services.accounts.issueToken(t.userB)
    const second = await t.services.accounts.issueToken(t.userB)
    expectStatus(await client().get(`/password/${first}`), 410)
    const older = await setThrough(first, 'taken over password')
    expectStatus(older, 410)
    expect(older.headers['set-cookie']).toBeUndefined()
    expectStatus(await setThrough(second, 'bob sets this one'), 303)
    // A password changed on the Account page cancels the link issued before it.
    const pending = await t.services.accounts.issueToken(t.userB)
    expectStatus(await client().get(`/password/${pending}`), 200)
    const bob = client('192.0.2.51')
    expectStatus(await bob.signIn('b@example.com', 'bob sets this one'), 303)
    const changed = await bob.submit('/dashboard/account', '/dashboard/account/password', {
      current_password: 'bob sets this one',
      password: 'bob changed it again',
      password_confirmation: 'bob changed it again',
    })
    expectStatus(changed, 303)
    const late = await setThrough(pending, 'taken over password')
    expectStatus(late, 410)
    expect(late.body).toContain('a newer link or a password change has cancelled it')
    expect(late.headers['set-cookie']).toBeUndefined()
    expectStatus(await bob.get('/dashboard'), 200)
    expect(await t.services.accounts.verify('b@example.com', 'bob changed it again')).not.toBeNull()
  })

  it('lets one of several requests using a link at once set the password', async () => {
    const token = await t.services.accounts.issueToken(t.userB)
    const c = client('192.0.2.55')
    const csrf = csrfOf((await c.get('/login')).body)
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        c.post(`/password/${token}`, {
          _csrf: csrf,
          password: `parallel password ${i}`,
          password_confirmation: `parallel password ${i}`,
        }),
      ),
    )
    expect(replies.map((r) => r.statusCode).sort()).toEqual([303, 410, 410, 410, 410, 410])
    const winner = replies.findIndex((r) => r.statusCode === 303)
    const password = `parallel password ${winner}`
    expect(await t.services.accounts.verify('b@example.com', password)).not.toBeNull()
  })

  it('a password change ends the other sessions of the user, not the one making it', async () => {
    const here = client('192.0.2.40')
    const there = client('192.0.2.41')
    const bob = client('192.0.2.42')
    await here.signIn('a@example.com', PASSWORD_A)
    await there.signIn('a@example.com', PASSWORD_A)
    await bob.signIn('b@example.com', PASSWORD_B)
    const res = await here.submit('/dashboard/account', '/dashboard/account/password', {
      current_password: PASSWORD_A,
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    })
    expectStatus(res, 303)
    expect(res.headers.location).toBe('/dashboard/account?changed')
    expect((await here.get('/dashboard/account?changed')).body).toContain(
      'Your password was changed.',
    )
    expect((await there.get('/dashboard')).headers.location).toBe('/login')
    expectStatus(await bob.get('/dashboard'), 200)
    // A wrong current password changes nothing.
    const wrong = await here.submit('/dashboard/account', '/dashboard/account/password', {
      current_password: PASSWORD_A,
      password: 'yet another one',
      password_confirmation: 'yet another one',
    })
    expectStatus(wrong, 422)
    expect(wrong.body).toContain('The current password is not correct.')
    expect(await t.services.accounts.verify('a@example.com', 'a brand new password')).not.toBeNull()
  })

  it('shows the admin page to admins only (the first user is an admin)', async () => {
    const admin = client()
    await admin.signIn('a@example.com', PASSWORD_A)
    const page = await admin.get('/dashboard/admin')
    expectStatus(page, 200)
    expect(page.body).toContain('b@example.com')
    expect((await admin.get('/dashboard')).body).toContain('href="/dashboard/admin"')
    const user = client()
    await user.signIn('b@example.com', PASSWORD_B)
    const refused = await user.get('/dashboard/admin')
    expectStatus(refused, 403)
    expect(refused.body).toContain('<h1>Not allowed</h1>')
    expect((await user.get('/dashboard')).body).not.toContain('href="/dashboard/admin"')
  })

  it('shows each user only their own links, clicks, spaces and totals', async () => {
    const space = await createSpace(t, { name: 'Alice space' })
    await createLink(t, { alias: 'alice-link', title: 'Alice title', space_id: space.id })
    await t.services.db.kysely.updateTable('links').set({ clicks: 7 }).execute()
    const alice = client()
    await alice.signIn('a@example.com', PASSWORD_A)
    const mine = await alice.get('/dashboard')
    expect(mine.body).toContain('Alice title')
    expect(mine.body).toContain('Alice space')
    expect(mine.body).toMatch(/id="total-links"><strong>1<\/strong> links/)
    expect(mine.body).toMatch(/id="total-clicks"><strong>7<\/strong> clicks/)
    expect(mine.body).toMatch(/id="total-spaces"><strong>1<\/strong> spaces/)
    const bob = client()
    await bob.signIn('b@example.com', PASSWORD_B)
    const theirs = await bob.get('/dashboard')
    expectStatus(theirs, 200)
    expect(theirs.body).not.toContain('Alice title')
    expect(theirs.body).not.toContain('alice-link')
    // No links of their own: the first-run Overview, with no figures of anyone's.
    expect(theirs.body).toContain('<h2 id="next-heading">Next steps</h2>')
    expect(theirs.body).not.toContain('id="total-links"')
  })

  it('serves the dashboard on the default domain only', async () => {
    const elsewhere = new FormClient(t.app, '192.0.2.50', 'other.test')
    for (const path of ['/login', '/dashboard', '/password/x']) {
      const res = await elsewhere.get(path)
      expectStatus(res, 404)
      expect(res.body).toContain('Link not found')
    }
  })

  it('home page of the default domain leads to sign-in, or to the dashboard once signed in', async () => {
    const c = client()
    const home = await c.get('/')
    expectStatus(home, 200)
    expect(home.body).toContain('href="/login"')
    await c.signIn('a@example.com', PASSWORD_A)
    expect((await c.get('/')).body).toContain('href="/dashboard"')
    expectStatus(await new FormClient(t.app, '192.0.2.51', 'other.test').get('/'), 404)
  })

  it('reserves the dashboard paths as aliases', async () => {
    for (const alias of ['dashboard', 'login', 'logout', 'password', 'assets']) {
      const res = await t.call('POST', '/api/v1/links', {
        form: { url: 'https://example.com/', domain_id: t.defaultDomainId, alias },
      })
      expectStatus(res, 422)
      expect(res.json()).toEqual({ message: { alias: ['The alias is reserved.'] }, status: 422 })
    }
  })
})
