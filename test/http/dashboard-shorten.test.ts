/**
 * The quick shorten box over HTTP: a plain post makes the link on the default domain and is
 * sent back to its page with `?shortened=<id>`, which shows the link; a URL without a scheme
 * gets `https://`; htmx gets the box alone (200 with the link, 422 with the message in
 * people's words); the bookmarklet's `?url=` fills the Shorten page; a new account's Overview
 * and Links page guide to the box, and a search with no match still says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, formBody, KEY_B, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { expectStatus } from './helpers.js'

describe('dashboard quick shorten', () => {
  let t: TestApp
  let alice: FormClient
  let csrf: string

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
    csrf = csrfOf((await alice.get('/dashboard')).body)
  })
  afterAll(() => t.close())

  /** The links of user A as the API lists them, newest first. */
  async function apiLinks(): Promise<{ id: number; url: string; short_url: string }[]> {
    const res = await t.call('GET', '/api/v1/links?sort=desc')
    expectStatus(res, 200)
    return (res.json() as { data: { id: number; url: string; short_url: string }[] }).data
  }

  /** A post as htmx sends it: the form's fields and `HX-Request: true`. */
  function htmxPost(form: Record<string, string>) {
    return t.app.inject({
      method: 'POST',
      url: '/dashboard/shorten',
      remoteAddress: '192.0.2.10',
      headers: {
        host: 'short.test',
        'content-type': 'application/x-www-form-urlencoded',
        'hx-request': 'true',
        cookie: [...alice.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      payload: formBody(form),
    })
  }

  it('guides a new account: the Overview has the box and next steps, Links says none yet', async () => {
    const overview = await alice.get('/dashboard')
    expectStatus(overview, 200)
    expect(overview.body).toContain('id="shorten-url"')
    expect(overview.body).toMatch(/<input[^>]*id="shorten-url"[^>]*autofocus/)
    expect(overview.body).toContain('<h2 id="next-heading">Next steps</h2>')
    expect(overview.body).toContain('href="/dashboard/domains/new"')
    expect(overview.body).toContain('href="/dashboard/pixels/new"')
    expect(overview.body).toContain('href="/dashboard/account#keys-heading"')
    expect(overview.body).not.toContain('id="chart-overview"')
    const links = await alice.get('/dashboard/links')
    expect(links.body).toContain('id="shorten-url"')
    expect(links.body).toContain('You have no links yet')
    expect(links.body).not.toContain('No links match.')
    const search = await alice.get('/dashboard/links?search=nothing')
    expect(search.body).toContain('No links match.')
    expect(search.body).not.toContain('You have no links yet')
  })

  it('makes the link from a plain post, adds https:// and shows it back on its page', async () => {
    const res = await alice.post('/dashboard/shorten', {
      _csrf: csrf,
      from: 'overview',
      url: '  example.org/first  ',
    })
    expectStatus(res, 303)
    const [link] = await apiLinks()
    expect(link!.url).toBe('https://example.org/first')
    expect(res.headers.location).toBe(`/dashboard?shortened=${link!.id}`)
    const page = await alice.get(res.headers.location as string)
    expectStatus(page, 200)
    expect(page.body).toContain(`<a href="${link!.short_url}" id="shortened-url">`)
    expect(page.body).toContain(`data-copy="${link!.short_url}"`)
    expect(page.body).toContain(`src="/dashboard/links/${link!.id}/qr.svg"`)
    // With a link, the Overview shows its figures again.
    expect(page.body).toContain('id="chart-overview"')

    const fromLinks = await alice.post('/dashboard/shorten', {
      _csrf: csrf,
      from: 'links',
      url: 'http://example.org/plain',
    })
    const [second] = await apiLinks()
    expect(second!.url).toBe('http://example.org/plain')
    expect(fromLinks.headers.location).toBe(`/dashboard/links?shortened=${second!.id}`)
    const list = await alice.get(fromLinks.headers.location as string)
    expect(list.body).toContain(`<a href="${second!.short_url}" id="shortened-url">`)
    // The page links of the list do not carry the one-time `shortened`.
    expect(list.body).not.toMatch(/page=\d[^"]*shortened|shortened=[^"]*page=/)
  })

  it('answers htmx with the box alone: the new link, or the message in people’s words', async () => {
    const made = await htmxPost({ _csrf: csrf, from: 'links', url: 'example.org/htmx' })
    expectStatus(made, 200)
    expect(made.headers['content-type']).toBe('text/html; charset=utf-8')
    const [link] = await apiLinks()
    expect(link!.url).toBe('https://example.org/htmx')
    expect(made.body.startsWith('<section class="panel shorten compact" id="shorten"')).toBe(true)
    expect(made.body).not.toContain('<html')
    expect(made.body).toContain(`<a href="${link!.short_url}" id="shortened-url">`)
    expect(made.body).toContain('name="url" value placeholder')

    const refused = await htmxPost({ _csrf: csrf, from: 'links', url: 'not a url' })
    expectStatus(refused, 422)
    expect(refused.body).toContain(
      '<p class="field-error" id="shorten-url-error" role="alert">“Long URL” must be a web address, such as https://example.org/page.</p>',
    )
    expect(refused.body).toContain('value="https://not a url"')
    const empty = await htmxPost({ _csrf: csrf, from: 'links', url: '' })
    expectStatus(empty, 422)
    expect(empty.body).toContain('Fill in “Long URL”.')
    expect((await apiLinks()).length).toBe(3)
  })

  it('shows a refused plain post on the Shorten page with its message, nothing made', async () => {
    const res = await alice.post('/dashboard/shorten', {
      _csrf: csrf,
      from: 'overview',
      url: 'javascript:alert(1)',
    })
    expectStatus(res, 422)
    expect(res.body).toContain('<title>Shorten a link · slink</title>')
    expect(res.body).toContain('“Long URL” must be a web address')
    expect(res.body).toContain('value="javascript:alert(1)"')
    expect((await apiLinks()).length).toBe(3)
    const forged = await alice.post('/dashboard/shorten', { from: 'overview', url: 'example.org' })
    expectStatus(forged, 403)
    expect((await apiLinks()).length).toBe(3)
  })

  it('fills the Shorten page from ?url= (the bookmarklet) and focuses the field', async () => {
    const res = await alice.get(
      `/dashboard/shorten?url=${encodeURIComponent('https://example.org/read?a=1&b="2"')}`,
    )
    expectStatus(res, 200)
    expect(res.body).toMatch(
      /<input type="text" inputmode="url" id="shorten-url" name="url" value="https:\/\/example.org\/read\?a=1&amp;b=&quot;2&quot;"[^>]*autofocus/,
    )
  })

  it('shows nothing for a ?shortened= that is not the user’s own link', async () => {
    const other = await t.call('POST', '/api/v1/links', {
      json: { url: 'https://example.org/bob' },
      key: KEY_B,
    })
    const id = (other.json() as { data: { id: number } }).data.id
    const res = await alice.get(`/dashboard?shortened=${id}`)
    expectStatus(res, 200)
    expect(res.body).not.toContain('id="shortened-url"')
    const bad = await alice.get('/dashboard/links?shortened=x1')
    expectStatus(bad, 200)
    expect(bad.body).not.toContain('id="shortened-url"')
  })
})
