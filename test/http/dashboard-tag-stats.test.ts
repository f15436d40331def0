/**
 * A tag's statistics in the dashboard and the Overview filtered by a tag, on SQLite and
 * PostgreSQL, with clicks made through real redirects (written in this thread): the tag page
 * adds up the clicks of the links carrying the tag as the API does, downloads each list as CSV,
 * and is the dashboard's 404 page for another user's tag or a missing one; the Overview's
 * `?tag=` narrows the totals, the chart and both lists to the tag's links, and says so plainly
 * when the user has no tag of that name.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/composition/app.js'
import { createRedirects, type Redirects } from '../../src/composition/redirects.js'
import { dayOfInstant } from '../../src/stats/period.js'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { FormClient } from '../support/dashboard.js'
import { BROWSER_UA } from '../support/server.js'
import { API, createLink, createPixel, createSpace, expectStatus, type Rec } from './helpers.js'

let t: TestApp
let redirects: Redirects
let app: FastifyInstance
let alice: FormClient
let spring: Rec
let sale: Rec
let bobsTag: Rec
const links: Record<string, Rec> = {}

/** The text of some markup, each tag a space, spaces collapsed. */
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

/** Counted visits; a link with a pixel answers with the pixel page (200) instead of a 302. */
async function visit(alias: string, times: number, referer?: string, status = 302): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await app.inject({
      method: 'GET',
      url: `/${alias}`,
      remoteAddress: `198.51.100.${i + 1}`,
      headers: {
        host: 'short.test',
        'user-agent': BROWSER_UA,
        ...(referer ? { referer } : {}),
      },
    })
    expectStatus(res, status)
  }
}

async function tagNamed(name: string, key?: string): Promise<Rec> {
  const res = await t.call('GET', `${API}/tags?search=${encodeURIComponent(name)}`, {
    ...(key ? { key } : {}),
  })
  expectStatus(res, 200)
  return (res.json() as { data: Rec[] }).data.find((tag) => tag.name === name)!
}

beforeAll(async () => {
  t = await createTestApp()
  redirects = await createRedirects(t.services, t.config, { inlineClicks: true })
  app = await buildApp({
    config: t.config,
    services: t.services,
    defaultDomainId: () => t.defaultDomainId,
    redirects,
  })
  await app.ready()
  await t.services.accounts.setPassword(t.userA, 'alice password')
  const pixel = await createPixel(t, { name: 'Promo pixel' })
  const space = await createSpace(t, { name: 'Promo', color: 2 })
  const base = `url=https%3A%2F%2Fexample.com%2Flanding&domain_id=${t.defaultDomainId}`
  links.springA = await createLink(
    t,
    `${base}&alias=spring-a&tags[]=Spring&pixel_ids[]=${pixel.id}&space_id=${space.id}`,
  )
  links.springB = await createLink(t, `${base}&alias=spring-b&tags[]=spring&tags[]=Sale`)
  links.plain = await createLink(t, `${base}&alias=plain`)
  links.bobs = await createLink(t, `${base}&alias=bobs&tags[]=Bob+only`, KEY_B)
  spring = await tagNamed('Spring')
  sale = await tagNamed('Sale')
  bobsTag = await tagNamed('Bob only', KEY_B)
  await visit('spring-a', 3, 'https://news.example.org/today', 200)
  await visit('spring-b', 2)
  await visit('plain', 4, 'https://mail.example.net/')
  await visit('bobs', 5)
  await redirects.recorder.flush()
  alice = new FormClient(app)
  expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
})
afterAll(async () => {
  await app.close()
  await redirects.recorder.close()
  await t.close()
})

async function apiRows(tagId: number, name: string) {
  const res = await t.call('GET', `${API}/tags/${tagId}/stats?name=${name}&per_page=100`)
  expectStatus(res, 200)
  return (res.json() as { data: { value: string | null; count: number }[] }).data
}

describe('GET /dashboard/tags/{id}/stats', () => {
  it("adds up the clicks of the tag's links: title, totals, the chart and each table", async () => {
    const res = await alice.get(`/dashboard/tags/${spring.id}/stats`)
    expectStatus(res, 200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    const page = res.body
    expect(page).toContain('<h1>Tag “Spring”: 2 links</h1>')
    expect(page).toContain(
      '<a class="button secondary" id="tag-links" href="/dashboard/links?tag=Spring">Its 2 links</a>',
    )
    expect(page).toContain('<li id="total-clicks"><strong>5</strong> clicks</li>')
    expect(page).toContain('<li id="total-all-time"><strong>5</strong> clicks all time</li>')
    // The chart: 30 days, today's bar the API's count.
    const today = dayOfInstant(Date.now())
    expect(page).toContain('data-bars="30"')
    expect(await apiRows(spring.id as number, 'clicks')).toEqual([{ value: today, count: 5 }])
    expect(page).toContain(`<title>${today.slice(5)}: 5 clicks</title>`)
    // The tables: the API's rows.
    expect(await apiRows(spring.id as number, 'referrer')).toEqual([
      { value: 'news.example.org', count: 3 },
      { value: null, count: 2 },
    ])
    const referrers = /<section class="panel" id="top-referrer"[\s\S]*?<\/section>/.exec(page)![0]
    expect(text(referrers)).toContain('news.example.org 3 60.0 %')
    expect(text(referrers)).toContain('Direct, or not known 2 40.0 %')
    const browsers = /<section class="panel" id="top-browser"[\s\S]*?<\/section>/.exec(page)![0]
    expect(text(browsers)).toContain('Chrome 5 100.0 %')
    expect(page).toContain('id="top-utm_source"')
    expect(page).toContain(`href="/dashboard/tags/${spring.id}/stats.csv?name=referrer&amp;from=`)
    // A tag with one link: its own clicks.
    const one = await alice.get(`/dashboard/tags/${sale.id}/stats`)
    expectStatus(one, 200)
    expect(one.body).toContain('<h1>Tag “Sale”: 1 link</h1>')
    expect(one.body).toContain('<li id="total-clicks"><strong>2</strong> clicks</li>')
  })

  it('downloads a list as the API’s CSV, and refuses a bad period or name with 422', async () => {
    const csv = await alice.get(`/dashboard/tags/${spring.id}/stats.csv?name=referrer`)
    expectStatus(csv, 200)
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
    const today = dayOfInstant(Date.now())
    const from = dayOfInstant(Date.now() - 29 * 86_400_000)
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="stats-tag-${spring.id}-referrer-${from}-${today}.csv"`,
    )
    expect(csv.body).toBe('value,count\r\nnews.example.org,3\r\n,2\r\n')
    const period = await alice.get(`/dashboard/tags/${spring.id}/stats?from=2026-02-30`)
    expectStatus(period, 422)
    expect(period.body).toContain('id="period-errors"')
    expect(period.body).toContain('The from field must match the format Y-m-d.')
    expect(period.body).not.toContain('id="total-clicks"')
    const name = await alice.get(`/dashboard/tags/${spring.id}/stats.csv?name=nope`)
    expectStatus(name, 422)
    expect(name.body).toContain('The selected name is invalid.')
  })

  it("is the dashboard's 404 page for another user's tag, a missing one or a malformed id", async () => {
    for (const path of [
      `/dashboard/tags/${bobsTag.id}/stats`,
      `/dashboard/tags/${bobsTag.id}/stats.csv?name=clicks`,
      '/dashboard/tags/999999/stats',
      '/dashboard/tags/abc/stats',
    ]) {
      const res = await alice.get(path)
      expectStatus(res, 404)
      expect(res.body).toContain('There is nothing here, or it is not yours.')
      expect(res.body).toContain('<a href="/dashboard/tags" id="not-found-back">Back to Tags</a>')
      expect(res.body).not.toContain('Bob only')
    }
  })

  it('is linked from each row of the Tags screen', async () => {
    const res = await alice.get('/dashboard/tags')
    expectStatus(res, 200)
    expect(res.body).toContain(
      `<a href="/dashboard/tags/${spring.id}/stats">Statistics<span class="visually-hidden"> of Spring</span></a>`,
    )
  })
})

describe('the Overview filtered by a tag', () => {
  const total = (page: string, name: string) =>
    Number(new RegExp(`<li id="total-${name}"><strong>(\\d+)</strong>`).exec(page)?.[1])
  /** The aliases a table of links lists, in order. */
  const rows = (page: string, id: string) => {
    const table = new RegExp(`<table id="${id}"[\\s\\S]*?</table>`).exec(page)?.[0] ?? ''
    return [...table.matchAll(/>\/([a-z-]+)<\/a>/g)].map((m) => m[1])
  }

  it('counts all links without a tag, and offers the user’s tags', async () => {
    const res = await alice.get('/dashboard')
    expectStatus(res, 200)
    const page = res.body
    expect(total(page, 'links')).toBe(3)
    expect(total(page, 'clicks')).toBe(9)
    expect(total(page, 'pixels')).toBe(1)
    expect(total(page, 'spaces')).toBe(1)
    expect(page).toContain('9 clicks from')
    expect(rows(page, 'top-links')).toEqual(['plain', 'spring-a', 'spring-b'])
    expect(page).toContain('<form method="post" action="/dashboard/shorten"')
    expect(page).toContain(
      '<form method="get" action="/dashboard" class="filters overview-tag" aria-label="Links counted">',
    )
    expect(page).toContain(
      '<select id="filter-tag" name="tag"><option value selected>All links</option><option value="Sale">Tagged Sale</option><option value="Spring">Tagged Spring</option></select>',
    )
    expect(page).not.toContain('Bob only')
  })

  it('narrows the totals, the chart and both lists to the links carrying the tag', async () => {
    const res = await alice.get('/dashboard?tag=spring')
    expectStatus(res, 200)
    const page = res.body
    expect(total(page, 'links')).toBe(2)
    expect(total(page, 'clicks')).toBe(5)
    expect(total(page, 'pixels')).toBe(1)
    expect(total(page, 'spaces')).toBe(1)
    expect(page).toContain('5 clicks from')
    expect(page).toContain(`<title>${dayOfInstant(Date.now()).slice(5)}: 5 clicks</title>`)
    expect(rows(page, 'top-links')).toEqual(['spring-a', 'spring-b'])
    expect(rows(page, 'latest-links')).toEqual(['spring-b', 'spring-a'])
    expect(page).toContain('<option value="Spring" selected>Tagged Spring</option>')
    expect(text(page)).toContain('Counting the 2 links tagged Spring')
    expect(page).toContain(`<a href="/dashboard/tags/${spring.id}/stats">Statistics of the tag</a>`)
    expect(page).toContain('<form method="post" action="/dashboard/shorten"')

    const one = await alice.get('/dashboard?tag=Sale')
    expectStatus(one, 200)
    expect(total(one.body, 'links')).toBe(1)
    expect(total(one.body, 'clicks')).toBe(2)
    expect(total(one.body, 'pixels')).toBe(0)
    expect(total(one.body, 'spaces')).toBe(0)
    expect(rows(one.body, 'latest-links')).toEqual(['spring-b'])
    // An empty choice is all links.
    const all = await alice.get('/dashboard?tag=')
    expectStatus(all, 200)
    expect(total(all.body, 'clicks')).toBe(9)
  })

  it('says plainly that the user has no such tag (another user’s included), with no numbers', async () => {
    for (const name of ['nope', 'Bob only']) {
      const res = await alice.get(`/dashboard?${new URLSearchParams({ tag: name })}`)
      expectStatus(res, 404)
      expect(res.body).toContain(
        `You have no tag named <strong>${name}</strong>. Choose one of your tags above, or <a href="/dashboard">all links</a>.`,
      )
      expect(res.body).not.toContain('id="total-clicks"')
      expect(res.body).toContain(`<option value="${name}" selected>Tagged ${name}</option>`)
      expect(res.body).toContain('<form method="post" action="/dashboard/shorten"')
    }
  })
})
