/**
 * Social previews of links: the `og_title`, `og_description` and `og_image` fields through the
 * API (stored, shown, cleared, validated, carried in webhooks), and the Open Graph page a
 * link-preview fetcher gets for the short URL while people and other bots are redirected and
 * only people counted. Runs on SQLite and PostgreSQL (the HTTP suite's two projects).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/composition/app.js'
import { createRedirects, type Redirects } from '../../src/composition/redirects.js'
import { createTestApp, type TestApp } from '../support/app.js'
import { BROWSER_UA } from '../support/server.js'
import { API, BASE, createLink, expectStatus, linkRecord, show, validation } from './helpers.js'

const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

let t: TestApp
let redirects: Redirects
let visits: Awaited<ReturnType<typeof buildApp>>

beforeAll(async () => {
  t = await createTestApp()
  redirects = await createRedirects(t.services, t.config, { inlineClicks: true })
  visits = await buildApp({
    config: t.config,
    services: t.services,
    defaultDomainId: () => t.defaultDomainId,
    redirects,
  })
  await visits.ready()
  const hook = await t.call('POST', `${API}/webhooks`, {
    json: { url: 'https://hooks.example.com/x', events: ['*'] },
  })
  expectStatus(hook, 201)
})
afterAll(async () => {
  await visits.close()
  await redirects.recorder.close()
  await t.close()
})

function visit(alias: string, userAgent: string, method: 'GET' | 'HEAD' = 'GET') {
  return visits.inject({
    method,
    url: `/${alias}`,
    headers: { host: 'short.test', 'user-agent': userAgent },
  })
}

async function clicksOf(id: number): Promise<{ counter: number; rows: number }> {
  await redirects.recorder.flush()
  const db = t.services.db.kysely
  const link = await db
    .selectFrom('links')
    .select('clicks')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  const rows = await db.selectFrom('clicks').select('link_id').where('link_id', '=', id).execute()
  return { counter: Number(link.clicks), rows: rows.length }
}

const PREVIEW = {
  og_title: 'Spring "sale" <now>',
  og_description: 'Everything & more, 30% off',
  og_image: 'https://cdn.example.com/cards/spring.png',
}

describe('the social preview fields', () => {
  it('are null when unset, after the fields of the contract', async () => {
    const link = await createLink(t, { alias: 'og-none' })
    expect(link).toEqual(linkRecord(t, 'og-none'))
    expect(Object.keys(link).slice(-3)).toEqual(['og_title', 'og_description', 'og_image'])
  })

  it('are stored from a form create and shown by show and list', async () => {
    const link = await createLink(t, { alias: 'og-form', ...PREVIEW })
    expect(link).toEqual(linkRecord(t, 'og-form', PREVIEW))
    expect(await show(t, `links/${link.id}`)).toEqual(linkRecord(t, 'og-form', PREVIEW))
    const list = await t.call('GET', `${API}/links?search=og-form&search_by=alias`)
    expect((list.json() as { data: unknown[] }).data).toEqual([linkRecord(t, 'og-form', PREVIEW)])
  })

  it('are accepted in JSON, changed alone, and cleared by an empty value', async () => {
    const created = await t.call('POST', `${API}/links`, {
      json: { url: 'https://example.com/landing', alias: 'og-json', og_title: 'Only a title' },
    })
    expectStatus(created, 201)
    const { id } = (created.json() as { data: { id: number } }).data
    const changed = await t.call('PUT', `${API}/links/${id}`, {
      json: { og_description: 'Now a description', og_image: 'http://img.example.com/a.jpg' },
    })
    expectStatus(changed, 200)
    expect((changed.json() as { data: unknown }).data).toEqual(
      linkRecord(t, 'og-json', {
        og_title: 'Only a title',
        og_description: 'Now a description',
        og_image: 'http://img.example.com/a.jpg',
      }),
    )
    const cleared = await t.call('PUT', `${API}/links/${id}`, {
      form: { og_title: '', og_description: '', og_image: '' },
    })
    expectStatus(cleared, 200)
    expect((cleared.json() as { data: unknown }).data).toEqual(linkRecord(t, 'og-json'))
  })

  it('are refused with 422 naming each field: too long, or an image that is not an http(s) URL', async () => {
    const res = await t.call('POST', `${API}/links`, {
      form: {
        url: 'https://example.com/landing',
        og_title: 'x'.repeat(256),
        og_description: 'y'.repeat(1001),
        og_image: 'javascript:alert(1)',
      },
    })
    expectStatus(res, 422)
    expect(res.json()).toEqual(
      validation({
        og_title: ['The og title field must not be greater than 255 characters.'],
        og_description: ['The og description field must not be greater than 1000 characters.'],
        og_image: ['The og image field must be a valid URL.'],
      }),
    )
    for (const image of ['data:image/png;base64,AAAA', 'ftp://example.com/a.png', '/a.png']) {
      const one = await t.call('POST', `${API}/links`, {
        form: { url: 'https://example.com/landing', og_image: image },
      })
      expect(one.json()).toEqual(
        validation({ og_image: ['The og image field must be a valid URL.'] }),
      )
    }
    const long = await t.call('POST', `${API}/links`, {
      form: { url: 'https://example.com/landing', og_image: `https://e.com/${'a'.repeat(2040)}` },
    })
    expect(long.json()).toEqual(
      validation({ og_image: ['The og image field must not be greater than 2048 characters.'] }),
    )
  })

  it('are the limits exactly: 255 and 1,000 characters pass', async () => {
    const link = await createLink(t, {
      alias: 'og-limits',
      og_title: 't'.repeat(255),
      og_description: 'd'.repeat(1000),
    })
    expect(link.og_title).toHaveLength(255)
    expect(link.og_description).toHaveLength(1000)
  })

  it('are carried in webhooks, a change named in `changed`', async () => {
    const link = await createLink(t, { alias: 'og-hook' })
    await t.call('PATCH', `${API}/links/${link.id}`, { form: { og_title: 'Hooked' } })
    const rows = await t.services.db.kysely
      .selectFrom('webhook_outbox')
      .select(['type', 'payload'])
      .where('type', '=', 'link.updated')
      .orderBy('id', 'desc')
      .limit(1)
      .execute()
    const payload = JSON.parse(rows[0]!.payload) as {
      data: { link: Record<string, unknown>; changed: string[] }
    }
    expect(payload.data.changed).toEqual(['og_title'])
    expect(payload.data.link).toMatchObject({
      alias: 'og-hook',
      og_title: 'Hooked',
      og_description: null,
      og_image: null,
    })
  })
})

describe('the short URL of a link with a social preview', () => {
  it('answers a preview fetcher 200 with the Open Graph page, escaped, and counts nothing', async () => {
    const link = await createLink(t, {
      alias: 'og-page',
      url: 'https://example.com/sale?a=1&b=2',
      ...PREVIEW,
    })
    const person = await visit('og-page', BROWSER_UA)
    expect(person.statusCode).toBe(302)
    expect(person.headers.location).toBe('https://example.com/sale?a=1&b=2')
    expect(await clicksOf(link.id)).toEqual({ counter: 1, rows: 1 })

    const res = await visit('og-page', SLACK)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'nonce-[^']+'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/,
    )
    expect(res.headers['cache-control']).toBe('no-store')
    const html = res.body
    const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'))
    expect(head).toContain('<title>Spring &quot;sale&quot; &lt;now&gt;</title>')
    expect(head).toContain(`<link rel="canonical" href="${BASE}/og-page">`)
    expect(head).toContain('<meta property="og:type" content="website">')
    expect(head).toContain(`<meta property="og:url" content="${BASE}/og-page">`)
    expect(head).toContain(
      '<meta property="og:title" content="Spring &quot;sale&quot; &lt;now&gt;">',
    )
    expect(head).toContain(
      '<meta property="og:description" content="Everything &amp; more, 30% off">',
    )
    expect(head).toContain(
      '<meta property="og:image" content="https://cdn.example.com/cards/spring.png">',
    )
    expect(head).toContain('<meta name="twitter:card" content="summary_large_image">')
    expect(html).not.toContain('<script')
    expect(html).toContain(
      '<a class="button" href="https://example.com/sale?a=1&amp;b=2" rel="noopener noreferrer nofollow">Continue to the page</a>',
    )
    expect(await clicksOf(link.id)).toEqual({ counter: 1, rows: 1 })
  })

  it('answers HEAD from a fetcher with the page headers and no body', async () => {
    await createLink(t, { alias: 'og-head', ...PREVIEW })
    const res = await visit('og-head', 'Twitterbot/1.0', 'HEAD')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.body).toBe('')
  })

  it('says `summary` without an image, and falls back to the link title, then the short URL', async () => {
    await createLink(t, {
      alias: 'og-noimage',
      title: 'Stored title',
      og_description: 'Just words',
    })
    const titled = await visit(
      'og-noimage',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    )
    expect(titled.statusCode).toBe(200)
    expect(titled.body).toContain('<meta property="og:title" content="Stored title">')
    expect(titled.body).toContain('<meta name="twitter:card" content="summary">')
    expect(titled.body).not.toContain('og:image')

    await createLink(t, { alias: 'og-bare', og_image: 'https://cdn.example.com/x.png' })
    const bare = await visit('og-bare', 'TelegramBot (like TwitterBot)')
    expect(bare.body).toContain(`<meta property="og:title" content="${BASE}/og-bare">`)
    expect(bare.body).not.toContain('og:description')
    expect(bare.body).toContain('<meta name="twitter:card" content="summary_large_image">')
  })

  it('redirects other bots (a search crawler) as before, uncounted', async () => {
    const link = await createLink(t, { alias: 'og-google', ...PREVIEW })
    const res = await visit('og-google', GOOGLEBOT)
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('https://example.com/landing')
    expect(await clicksOf(link.id)).toEqual({ counter: 0, rows: 0 })
  })

  it('redirects a preview fetcher when the link has no preview, as before', async () => {
    await createLink(t, { alias: 'og-plain' })
    const res = await visit('og-plain', SLACK)
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('https://example.com/landing')
  })

  it('shows a password link’s own fields only: neither its destination nor its title', async () => {
    await createLink(t, {
      alias: 'og-locked',
      url: 'https://secret.example.com/place',
      title: 'Secret place',
      password: 'open sesame',
      og_description: 'Ask me for the word',
    })
    const res = await visit('og-locked', 'WhatsApp/2.23.20.0 A')
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain(`<meta property="og:title" content="${BASE}/og-locked">`)
    expect(res.body).toContain('<meta property="og:description" content="Ask me for the word">')
    expect(res.body).toContain(`<a class="button" href="${BASE}/og-locked">Open the link</a>`)
    expect(res.body).not.toContain('secret')
    expect(res.body).not.toContain('Secret')
    const person = await visit('og-locked', BROWSER_UA)
    expect(person.statusCode).toBe(200)
    expect(person.body).toContain('name="password"')
  })

  it('leaves disabled and expired links as they are: 404 and 410, or the expiry URL', async () => {
    const disabled = await createLink(t, { alias: 'og-off', disabled: 1, ...PREVIEW })
    const off = await visit('og-off', SLACK)
    expect(off.statusCode).toBe(404)
    expect(off.body).not.toContain('og:')
    expect(disabled.disabled).toBe(1)

    await createLink(t, {
      alias: 'og-old',
      expiration_date: '2020-01-01',
      expiration_time: '00:00',
      ...PREVIEW,
    })
    const old = await visit('og-old', SLACK)
    expect(old.statusCode).toBe(410)
    expect(old.body).not.toContain('og:')

    await createLink(t, {
      alias: 'og-moved',
      expiration_date: '2020-01-01',
      expiration_time: '00:00',
      expiration_url: 'https://example.com/over',
      ...PREVIEW,
    })
    const moved = await visit('og-moved', SLACK)
    expect(moved.statusCode).toBe(302)
    expect(moved.headers.location).toBe('https://example.com/over')
  })

  it('follows a change of the fields at once (the redirect cache is told)', async () => {
    const link = await createLink(t, { alias: 'og-change' })
    expect((await visit('og-change', SLACK)).statusCode).toBe(302)
    await t.call('PATCH', `${API}/links/${link.id}`, { form: { og_title: 'Now a card' } })
    const card = await visit('og-change', SLACK)
    expect(card.statusCode).toBe(200)
    expect(card.body).toContain('<meta property="og:title" content="Now a card">')
    await t.call('PATCH', `${API}/links/${link.id}`, { form: { og_title: '' } })
    expect((await visit('og-change', SLACK)).statusCode).toBe(302)
  })
})
