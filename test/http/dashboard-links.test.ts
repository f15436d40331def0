/**
 * The dashboard's links list: the API list's parameters (and its validation messages), pages
 * that keep every filter, the user's own links only, stored values escaped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { FormClient } from '../support/dashboard.js'
import { createLink, createSpace, expectStatus, setClicks } from './helpers.js'

describe('dashboard links list', () => {
  let t: TestApp
  let alice: FormClient
  let spaceId: number

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    spaceId = (await createSpace(t, { name: 'Campaign <b>' })).id
    for (let i = 1; i <= 12; i++) {
      const link = await createLink(t, {
        alias: `link-${String(i).padStart(2, '0')}`,
        title: i === 3 ? '<script>alert(1)</script> third' : `Title ${i}`,
        ...(i % 2 === 0 ? { space_id: spaceId } : {}),
        ...(i === 5 ? { disabled: 1 } : {}),
      })
      await setClicks(t, link.id, i * 10)
    }
    await createLink(t, { alias: 'bobs-link', title: 'Bob title' }, KEY_B)
    alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
  })
  afterAll(() => t.close())

  const aliases = (html: string) =>
    [
      ...html.matchAll(
        /<tr id="link-\d+">.*?<a href="[^"]+" class="short-text">short\.test\/([^<]+)<\/a>/g,
      ),
    ].map((m) => m[1])

  it('lists the newest ten of the user’s own links by default, with the page count', async () => {
    const res = await alice.get('/dashboard/links')
    expectStatus(res, 200)
    expect(aliases(res.body)).toEqual([
      'link-12',
      'link-11',
      'link-10',
      'link-09',
      'link-08',
      'link-07',
      'link-06',
      'link-05',
      'link-04',
      'link-03',
    ])
    expect(res.body).toContain('1–10 of 12 links')
    expect(res.body).toContain('Page 1 of 2')
    expect(res.body).not.toContain('bobs-link')
    // Stored text is escaped.
    expect(res.body).toContain('&lt;script>alert(1)&lt;/script> third')
    expect(res.body).not.toContain('<script>alert(1)')
    expect(res.body).toContain('Campaign &lt;b>')
  })

  it('takes the API list parameters: search, status, space, sort, rows; pages keep them', async () => {
    const res = await alice.get(
      `/dashboard/links?search=link-&search_by=alias&status=1&space_id=${spaceId}&sort_by=clicks&sort=asc&per_page=10`,
    )
    expectStatus(res, 200)
    expect(aliases(res.body)).toEqual([
      'link-02',
      'link-04',
      'link-06',
      'link-08',
      'link-10',
      'link-12',
    ])
    const disabled = await alice.get('/dashboard/links?status=3')
    expect(aliases(disabled.body)).toEqual(['link-05'])
    expect(disabled.body).toContain('<span class="badge status-disabled">Disabled</span>')
    const noSpace = await alice.get('/dashboard/links?space_id=0&per_page=25&sort=asc')
    expect(aliases(noSpace.body)).toEqual([
      'link-01',
      'link-03',
      'link-05',
      'link-07',
      'link-09',
      'link-11',
    ])
    // phpShort 2.x names work here too; empty fields of the filter form are no filter.
    const old = await alice.get('/dashboard/links?sort=max&by=title&search=&space_id=')
    expect(aliases(old.body).slice(0, 2)).toEqual(['link-12', 'link-11'])
    const second = await alice.get('/dashboard/links?search=Title&sort_by=alias&sort=asc&page=2')
    expect(aliases(second.body)).toEqual(['link-12'])
    expect(second.body).toContain(
      'href="/dashboard/links?search=Title&amp;sort_by=alias&amp;sort=asc&amp;page=1"',
    )
  })

  it('one search box looks in alias, destination and title at once unless search_by says otherwise', async () => {
    const byUrl = await createLink(t, { alias: 'zz-plain', url: 'https://needle.example/x' })
    const res = await alice.get('/dashboard/links?search=needle')
    expectStatus(res, 200)
    expect(aliases(res.body)).toEqual(['zz-plain'])
    // The same term in titles only finds nothing: the box is not titles-only.
    expect(
      aliases((await alice.get('/dashboard/links?search=needle&search_by=title')).body),
    ).toEqual([])
    expect(aliases((await alice.get('/dashboard/links?search=link-1')).body)).toEqual([
      'link-12',
      'link-11',
      'link-10',
    ])
    expectStatus(await t.call('DELETE', `/api/v1/links/${byUrl.id}`), 200)
  })

  it('shows each link on one row: short link without scheme, host first, status and feature badges, a menu', async () => {
    const u = encodeURIComponent
    const rich = await createLink(
      t,
      [
        `url=${u('https://www.example.org/a/long/path?x=1')}&domain_id=${t.defaultDomainId}`,
        'alias=rich&password=secret&expiration_clicks=50',
        `country[0][key]=FR&country[0][value]=${u('https://example.fr/')}`,
        `rotation[0][value]=${u('https://b.example/')}`,
      ].join('&'),
    )
    const res = await alice.get('/dashboard/links?search=rich&search_by=alias')
    const row = new RegExp(`<tr id="link-${rich.id}">(.*?)</tr>`).exec(res.body)?.[1] ?? ''
    expect(row).toContain('<a href="http://short.test/rich" class="short-text">short.test/rich</a>')
    expect(row).toContain('data-copy="http://short.test/rich" aria-label="Copy short.test/rich"')
    expect(row).toContain(
      '<span class="host">example.org</span><span class="rest">/a/long/path?x=1</span>',
    )
    expect(row).toContain('<span class="badge status-active">Active</span>')
    for (const word of ['Password', 'Expiry', 'Targeting', 'Rotation'])
      expect(row).toContain(`>${word}</span>`)
    expect(row).not.toContain('>Pixels')
    // Statistics in sight; the other actions in a menu that works without JavaScript.
    expect(row).toContain(`href="/dashboard/links/${rich.id}/stats"`)
    expect(row).toMatch(
      /<details class="row-menu"><summary aria-label="More actions for short\.test\/rich">More<\/summary>/,
    )
    expect(row).toContain(`action="/dashboard/links/${rich.id}/disable"`)
    expectStatus(await t.call('DELETE', `/api/v1/links/${rich.id}`), 200)
  })

  it('sorts by its column headers, which keep the filters and turn the order round', async () => {
    const res = await alice.get(`/dashboard/links?status=1&sort_by=clicks&sort=desc`)
    expect(res.body).toContain(
      '<th scope="col" class="num col-clicks" aria-sort="descending"><a class="sort" href="/dashboard/links?status=1&amp;sort_by=clicks&amp;sort=asc">Clicks<span aria-hidden="true"> ↓</span></a></th>',
    )
    expect(res.body).toContain(
      '<th scope="col" class="col-short"><a class="sort" href="/dashboard/links?status=1&amp;sort_by=alias&amp;sort=asc">Short link</a></th>',
    )
    expect(res.body).toContain(
      'href="/dashboard/links?status=1&amp;sort_by=id&amp;sort=desc">Created</a>',
    )
    // The closed filter menu says one filter is on.
    expect(res.body).toContain('<summary>Filters (1)</summary>')
  })

  it('answers parameters the API refuses with its messages (422), not a silent default', async () => {
    const res = await alice.get('/dashboard/links?per_page=20&sort=up&status=9')
    expectStatus(res, 422)
    const api = await t.call('GET', '/api/v1/links?per_page=20&sort=up&status=9')
    expectStatus(api, 422)
    const messages = Object.values(
      (api.json() as { message: Record<string, string[]> }).message,
    ).flat()
    expect(messages.length).toBe(3)
    for (const message of messages) expect(res.body).toContain(message.replace(/'/g, '&#39;'))
    expect(res.body).toContain('href="/dashboard/links"')
  })

  it('sends people who are not signed in to the sign-in page', async () => {
    const res = await new FormClient(t.app).get('/dashboard/links?status=1')
    expectStatus(res, 303)
    expect(res.headers.location).toBe('/login')
  })
})
