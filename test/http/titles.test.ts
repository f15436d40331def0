import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { startPagesServer, type PagesServer } from '../support/pages-server.js'

let t: TestApp
let site: PagesServer

beforeAll(async () => {
  site = await startPagesServer()
  site.html('/spring', '<title>Spring sale</title>')
  site.html('/autumn', '<title>Autumn sale</title>')
  // The destination is a local server, so this app may fetch from loopback.
  t = await createTestApp({}, { titleFetch: { allowPrivate: true, timeoutMs: 2000 } })
})
afterAll(async () => {
  await t.close()
  await site.close()
})

type Link = { id: number; title: string | null }

async function create(form: Record<string, string | number>): Promise<Link> {
  const res = await t.call('POST', '/api/v1/links', {
    form: { domain_id: t.defaultDomainId, ...form },
  })
  expect(res.statusCode).toBe(201)
  return (res.json() as { data: Link }).data
}

async function titleOf(id: number): Promise<string | null> {
  await t.services.titles!.idle()
  return ((await t.call('GET', `/api/v1/links/${id}`)).json() as { data: Link }).data.title
}

describe('link titles from the destination page', () => {
  it('answers at once and fills the title in the background', async () => {
    const link = await create({ url: `${site.origin}/spring` })
    expect(link.title).toBeNull()
    expect(await titleOf(link.id)).toBe('Spring sale')
  })

  it('fetches the new page when the url changes', async () => {
    const link = await create({ url: `${site.origin}/spring` })
    await titleOf(link.id)
    expect(
      (
        await t.call('PATCH', `/api/v1/links/${link.id}`, {
          form: { url: `${site.origin}/autumn` },
        })
      ).statusCode,
    ).toBe(200)
    expect(await titleOf(link.id)).toBe('Autumn sale')
  })

  it('never overwrites a title the client sent, not even when the url changes', async () => {
    const link = await create({ url: `${site.origin}/spring`, title: 'My own title' })
    expect(await titleOf(link.id)).toBe('My own title')
    await t.call('PATCH', `/api/v1/links/${link.id}`, { form: { url: `${site.origin}/autumn` } })
    expect(await titleOf(link.id)).toBe('My own title')
  })

  it('fetches again after the client clears its title', async () => {
    const link = await create({ url: `${site.origin}/autumn`, title: 'Mine' })
    await t.call('PATCH', `/api/v1/links/${link.id}`, { form: { title: '' } })
    expect(await titleOf(link.id)).toBe('Autumn sale')
  })

  it('leaves the title empty when the page cannot be read', async () => {
    const link = await create({ url: `${site.origin}/no-such-page` })
    expect(await titleOf(link.id)).toBeNull()
  })
})

describe('a fetched title is a change', () => {
  it('raises link.updated with changed ["title"] into the outbox', async () => {
    const hook = await t.call('POST', '/api/v1/webhooks', {
      json: { url: 'https://hooks.example.com/t', events: ['link.updated'] },
    })
    expect(hook.statusCode).toBe(201)
    const link = await create({ url: `${site.origin}/autumn` })
    expect(await titleOf(link.id)).toBe('Autumn sale')
    const rows = await t.services.db.kysely
      .selectFrom('webhook_outbox')
      .select(['type', 'payload'])
      .execute()
    expect(rows.map((r) => r.type)).toEqual(['link.updated'])
    const body = JSON.parse(rows[0]!.payload) as {
      data: { link: { id: number; title: string }; changed: string[] }
    }
    expect(body.data.changed).toEqual(['title'])
    expect(body.data.link).toMatchObject({ id: link.id, title: 'Autumn sale' })
  })
})

describe('title fetches across a stop', () => {
  const pending = () =>
    t.services.db.kysely
      .selectFrom('links')
      .select(['id', 'title', 'title_fetch_at'])
      .where('title_fetch_at', 'is not', null)
      .orderBy('id')
      .execute()

  it('stops at once with fetches hanging, leaves them marked, and a new queue resumes them', async () => {
    let hanging = 0
    site.on('/slow', () => {
      hanging++ // never answers
    })
    await t.services.titles!.idle()
    expect(await pending()).toEqual([])
    const links = [
      await create({ url: `${site.origin}/slow` }),
      await create({ url: `${site.origin}/slow` }),
      await create({ url: `${site.origin}/slow` }),
    ]
    // Two run (the concurrency), one waits; all three are marked from their create on.
    await expect.poll(() => hanging).toBe(2)
    expect((await pending()).map((r) => r.id)).toEqual(links.map((l) => l.id))
    const started = Date.now()
    await t.services.titles!.stop()
    expect(Date.now() - started).toBeLessThan(1000)
    // Nothing was fetched, nothing was cleared.
    expect(await pending()).toEqual(
      links.map((l) => ({ id: l.id, title: null, title_fetch_at: expect.any(Number) })),
    )
    // The next start: the page answers now, and resuming takes every marked link up.
    site.html('/slow', '<title>Finally here</title>')
    const { TitleQueue } = await import('../../src/links/title-queue.js')
    const { SqlLinkStore } = await import('../../src/links/store.js')
    const store = new SqlLinkStore(t.services.db)
    const next = new TitleQueue(
      {
        save: (id, url, title) => t.services.links.keepFetchedTitle(id, url, title),
        mark: (id) => store.markTitleFetch(id, Date.now()),
        finish: (id, url) => store.finishTitleFetch(id, url),
        pending: (after, limit) => store.pendingTitleFetches(after, limit),
      },
      { allowPrivate: true, timeoutMs: 2000 },
    )
    expect(await next.resume(2)).toBeGreaterThanOrEqual(3)
    await next.idle()
    expect(await pending()).toEqual([])
    for (const link of links) {
      const res = await t.call('GET', `/api/v1/links/${link.id}`)
      expect((res.json() as { data: Link }).data.title).toBe('Finally here')
    }
  })
})
