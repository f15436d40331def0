/**
 * The store contract: what every engine's stores must do, run against each real database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Db } from '../../src/db/connect.js'
import { aggregate } from '../../src/clicks/aggregate.js'
import { forgetClicksOfDeletedLinks } from '../../src/clicks/orphans.js'
import { clickStoreFor } from '../../src/clicks/store.js'
import { SqlDomainStore } from '../../src/domains/store.js'
import { SqlRedirectStore } from '../../src/redirects/store.js'
import { SqlLinkStore } from '../../src/links/store.js'
import { SqlPixelStore } from '../../src/pixels/store.js'
import { SqlSpaceStore } from '../../src/spaces/store.js'
import { SqlUserStore } from '../../src/users/store.js'
import type { TestDatabase } from '../support/databases.js'

const page = { page: 1, perPage: 100, sort: 'asc' as const }
const T = 1_700_000_000_000

export function storeContract(engine: string, fresh: () => Promise<TestDatabase>): void {
  describe(`stores on ${engine}`, () => {
    let t: TestDatabase
    let db: Db
    let users: SqlUserStore
    let domains: SqlDomainStore
    let spaces: SqlSpaceStore
    let pixels: SqlPixelStore
    let links: SqlLinkStore
    let alice: number
    let bob: number
    let domainId: number

    beforeEach(async () => {
      t = await fresh()
      db = t.db
      users = new SqlUserStore(db)
      domains = new SqlDomainStore(db)
      spaces = new SqlSpaceStore(db)
      pixels = new SqlPixelStore(db)
      links = new SqlLinkStore(db)
      alice = (
        await users.create({ name: 'Alice', email: 'alice@example.com', timezone: 'UTC' }, T)
      ).id
      bob = (await users.create({ name: 'Bob', email: 'bob@example.com', timezone: 'UTC' }, T)).id
      domainId = (
        await domains.create(
          null,
          { name: 'short.test', url: 'https://short.test', index_page: null, not_found_page: null },
          T,
        )
      ).id
    })
    afterEach(() => t.drop())

    const link = (alias: string, extra: Record<string, unknown> = {}) => ({
      user_id: alice,
      domain_id: domainId,
      alias,
      url: `https://example.com/${alias}`,
      title: null,
      title_locked: 0,
      target_type: 0,
      disabled: 0,
      privacy: 0,
      clicks: 0,
      created_at: T,
      updated_at: T,
      ...extra,
    })

    it('finds users by email case-insensitively and counts them', async () => {
      expect((await users.findByEmail('ALICE@example.com'))?.id).toBe(alice)
      expect(await users.count()).toBe(2)
    })

    it('finds live keys by prefix and forgets revoked ones', async () => {
      const key = await users.addKey(alice, 'abcdefghijkl', 'f'.repeat(64), T)
      expect((await users.keysByPrefix('abcdefgh')).map((k) => k.id)).toEqual([key.id])
      expect((await users.keyByHash('f'.repeat(64)))?.user_id).toBe(alice)
      await users.revokeKey(key.id, T + 1)
      expect(await users.keysByPrefix('abcdefgh')).toEqual([])
      expect(await users.keyByHash('f'.repeat(64))).toBeUndefined()
    })

    it("lists a user its own domains and the global ones, never another user's", async () => {
      const own = await domains.create(
        alice,
        { name: 'a.test', url: 'https://a.test', index_page: null, not_found_page: null },
        T,
      )
      await domains.create(
        bob,
        { name: 'b.test', url: 'https://b.test', index_page: null, not_found_page: null },
        T,
      )
      const listed = await domains.list(alice, { sortBy: 'name' }, page)
      expect(listed.rows.map((d) => d.name)).toEqual(['a.test', 'short.test'])
      expect(listed.total).toBe(2)
      expect(await domains.findVisible(bob, own.id)).toBeUndefined()
    })

    it('refuses a second domain with the same host name', async () => {
      await expect(
        domains.create(
          alice,
          { name: 'short.test', url: 'http://short.test', index_page: null, not_found_page: null },
          T,
        ),
      ).rejects.toMatchObject({ code: expect.stringMatching(/^(23505|SQLITE_CONSTRAINT_UNIQUE)$/) })
    })

    it('keeps space and pixel names unique per user only', async () => {
      await spaces.create(alice, { name: 'Work', color: 1 }, T)
      await spaces.create(bob, { name: 'Work', color: 2 }, T)
      await expect(spaces.create(alice, { name: 'Work', color: 3 }, T)).rejects.toBeDefined()
      await pixels.create(alice, { name: 'FB', type: 'facebook', value: '1' }, T)
      await pixels.create(bob, { name: 'FB', type: 'facebook', value: '2' }, T)
      await expect(
        pixels.create(alice, { name: 'FB', type: 'bing', value: '3' }, T),
      ).rejects.toBeDefined()
    })

    it('searches case-insensitively with % and _ taken literally, and sorts text the same on every engine', async () => {
      for (const name of ['b_x', 'B%y', 'a', 'Zed', 'äpfel'])
        await spaces.create(alice, { name, color: 1 }, T)
      expect(
        (await spaces.list(alice, { search: '_', sortBy: 'id' }, page)).rows.map((s) => s.name),
      ).toEqual(['b_x'])
      expect(
        (await spaces.list(alice, { search: '%', sortBy: 'id' }, page)).rows.map((s) => s.name),
      ).toEqual(['B%y'])
      expect(
        (await spaces.list(alice, { search: 'ÄPF', sortBy: 'id' }, page)).rows.map((s) => s.name),
      ).toEqual(['äpfel'])
      expect((await spaces.list(alice, { sortBy: 'name' }, page)).rows.map((s) => s.name)).toEqual([
        'a',
        'B%y',
        'b_x',
        'Zed',
        'äpfel',
      ])
    })

    it('pages with ties broken by id, and counts the total', async () => {
      for (let i = 0; i < 5; i++) await links.create(link(`l${i}`, { clicks: i % 2 }), [])
      const first = await links.list(
        alice,
        { searchBy: 'title', sortBy: 'clicks' },
        { page: 1, perPage: 2, sort: 'desc' },
        T,
      )
      const second = await links.list(
        alice,
        { searchBy: 'title', sortBy: 'clicks' },
        { page: 2, perPage: 2, sort: 'desc' },
        T,
      )
      const third = await links.list(
        alice,
        { searchBy: 'title', sortBy: 'clicks' },
        { page: 3, perPage: 2, sort: 'desc' },
        T,
      )
      expect([...first.rows, ...second.rows, ...third.rows].map((l) => l.alias)).toEqual([
        'l3',
        'l1',
        'l4',
        'l2',
        'l0',
      ])
      expect(first.total).toBe(5)
      expect(
        (
          await links.list(
            alice,
            { searchBy: 'title', sortBy: 'id' },
            { page: 4, perPage: 2, sort: 'asc' },
            T,
          )
        ).rows,
      ).toEqual([])
    })

    it('selects links by status exactly as the status rule says', async () => {
      await links.create(link('active', { ends_at: T + 1000, expiration_clicks: 5, clicks: 4 }), [])
      await links.create(link('by-date', { ends_at: T }), [])
      await links.create(link('by-clicks', { expiration_clicks: 3, clicks: 3 }), [])
      await links.create(link('off', { disabled: 1, ends_at: T - 1 }), [])
      const by = async (status: 'active' | 'expired' | 'disabled') =>
        (await links.list(alice, { searchBy: 'title', sortBy: 'id', status }, page, T)).rows.map(
          (l) => l.alias,
        )
      expect(await by('active')).toEqual(['active'])
      expect(await by('expired')).toEqual(['by-date', 'by-clicks'])
      expect(await by('disabled')).toEqual(['off'])
    })

    it("keeps a link's pixel set, replaces it on update, and filters by pixel and space", async () => {
      const p1 = await pixels.create(alice, { name: 'one', type: 'bing', value: '1' }, T)
      const p2 = await pixels.create(alice, { name: 'two', type: 'bing', value: '2' }, T)
      const space = await spaces.create(alice, { name: 'S', color: 1 }, T)
      const a = await links.create(link('a', { space_id: space.id }), [p2.id, p1.id])
      const b = await links.create(link('b'), [p1.id])
      expect((await links.pixelIdsOf([a.id, b.id])).get(a.id)).toEqual([p1.id, p2.id])
      await links.update(a.id, { updated_at: T + 1 }, [p2.id])
      expect((await links.pixelIdsOf([a.id])).get(a.id)).toEqual([p2.id])
      await links.update(a.id, { updated_at: T + 2 }, undefined)
      expect((await links.pixelIdsOf([a.id])).get(a.id)).toEqual([p2.id])
      const byPixel = await links.list(
        alice,
        { searchBy: 'title', sortBy: 'id', pixelId: p1.id },
        page,
        T,
      )
      expect(byPixel.rows.map((l) => l.alias)).toEqual(['b'])
      const noSpace = await links.list(
        alice,
        { searchBy: 'title', sortBy: 'id', spaceId: 0 },
        page,
        T,
      )
      expect(noSpace.rows.map((l) => l.alias)).toEqual(['b'])
    })

    it("deletes a space's and a domain's links with them, and detaches a deleted pixel", async () => {
      const pixel = await pixels.create(alice, { name: 'one', type: 'bing', value: '1' }, T)
      const space = await spaces.create(alice, { name: 'S', color: 1 }, T)
      const own = await domains.create(
        alice,
        { name: 'a.test', url: 'https://a.test', index_page: null, not_found_page: null },
        T,
      )
      const inSpace = await links.create(link('in-space', { space_id: space.id }), [pixel.id])
      const onDomain = await links.create(link('on-domain', { domain_id: own.id }), [])
      const kept = await links.create(link('kept'), [pixel.id])
      expect((await links.keysOf({ spaceId: space.id })).map((k) => k.alias)).toEqual(['in-space'])
      expect((await links.keysOf({ pixelId: pixel.id })).map((k) => k.alias).sort()).toEqual([
        'in-space',
        'kept',
      ])
      await spaces.delete(space.id)
      await domains.delete(own.id)
      await pixels.delete(pixel.id)
      expect(await links.find(alice, inSpace.id)).toBeUndefined()
      expect(await links.find(alice, onDomain.id)).toBeUndefined()
      expect((await links.find(alice, kept.id))?.alias).toBe('kept')
      expect((await links.pixelIdsOf([kept.id])).get(kept.id)).toBeUndefined()
    })

    it('refuses a second link with the same alias on a domain, case-sensitively', async () => {
      await links.create(link('Promo'), [])
      await links.create(link('promo'), [])
      expect(await links.aliasTaken(domainId, 'Promo')).toBe(true)
      expect(await links.aliasTaken(domainId, 'PROMO')).toBe(false)
      await expect(links.create(link('Promo'), [])).rejects.toBeDefined()
    })

    it('sets a fetched title only while the client has not set one and the URL is unchanged', async () => {
      const a = await links.create(link('a'), [])
      await links.setFetchedTitle(a.id, 'https://example.com/other', 'Wrong')
      expect((await links.find(alice, a.id))?.title).toBeNull()
      await links.setFetchedTitle(a.id, a.url, 'Fetched')
      expect((await links.find(alice, a.id))?.title).toBe('Fetched')
      const b = await links.create(link('b', { title: 'Mine', title_locked: 1 }), [])
      await links.setFetchedTitle(b.id, b.url, 'Fetched')
      expect((await links.find(alice, b.id))?.title).toBe('Mine')
    })

    it('writes a batch of clicks: rows, per-day aggregates, unique visitors, link counts, rotation', async () => {
      const a = await links.create(link('a'), [])
      const b = await links.create(link('b', { expiration_clicks: 10, clicks: 1 }), [])
      const gone = await links.create(link('gone'), [])
      await links.delete(gone.id)
      const at = Date.UTC(2026, 4, 1, 13, 30)
      const row = (link_id: number, visitor: string, country: string | null) => ({
        link_id,
        at,
        country,
        platform: 'Windows',
        browser: 'Chrome',
        device: 'desktop',
        language: 'de',
        referrer: null,
        visitor,
      })
      const rows = [
        row(a.id, 'v1', 'DE'),
        row(a.id, 'v1', 'DE'),
        row(a.id, 'v2', null),
        row(b.id, 'v3', 'FR'),
        row(gone.id, 'v4', 'US'),
      ]
      const counted = [false, false, false, true, false]
      const store = clickStoreFor(db)
      await store.write({
        rows,
        aggregate: aggregate(rows, counted),
        rotations: new Map([[a.id, 2]]),
      })
      // The same visitor again on the same day is not a new unique visitor.
      await store.write({
        rows: [row(a.id, 'v2', 'DE')],
        aggregate: aggregate([row(a.id, 'v2', 'DE')], [false]),
        rotations: new Map(),
      })

      expect((await links.find(alice, a.id))?.clicks).toBe(4)
      expect((await links.find(alice, a.id))?.last_rotation).toBe(2)
      expect((await links.find(alice, b.id))?.clicks).toBe(1)
      const stats = await db.kysely
        .selectFrom('click_stats')
        .select(['link_id', 'dimension', 'day', 'value', 'clicks'])
        .where('link_id', '=', a.id)
        .orderBy('dimension')
        .orderBy('value')
        .execute()
      expect(stats).toEqual([
        { link_id: a.id, dimension: 'browser', day: '2026-05-01', value: 'Chrome', clicks: 4 },
        { link_id: a.id, dimension: 'country', day: '2026-05-01', value: '', clicks: 1 },
        { link_id: a.id, dimension: 'country', day: '2026-05-01', value: 'DE', clicks: 3 },
        { link_id: a.id, dimension: 'device', day: '2026-05-01', value: 'desktop', clicks: 4 },
        { link_id: a.id, dimension: 'hour', day: '2026-05-01', value: '13', clicks: 4 },
        { link_id: a.id, dimension: 'language', day: '2026-05-01', value: 'de', clicks: 4 },
        { link_id: a.id, dimension: 'platform', day: '2026-05-01', value: 'Windows', clicks: 4 },
        { link_id: a.id, dimension: 'referrer', day: '2026-05-01', value: '', clicks: 4 },
        { link_id: a.id, dimension: 'total', day: '2026-05-01', value: '', clicks: 4 },
        { link_id: a.id, dimension: 'visitors', day: '2026-05-01', value: '', clicks: 2 },
      ])
      const logged = await db.kysely.selectFrom('clicks').select('link_id').execute()
      expect(logged.map((r) => r.link_id).sort()).toEqual([a.id, a.id, a.id, a.id, b.id].sort())
    })

    it('removes click-log rows of deleted links, and only those', async () => {
      const a = await links.create(link('a'), [])
      const b = await links.create(link('b'), [])
      const row = (link_id: number) => ({
        link_id,
        at: T,
        country: null,
        platform: null,
        browser: null,
        device: null,
        language: null,
        referrer: null,
        visitor: 'v',
      })
      await db.kysely
        .insertInto('clicks')
        .values([row(a.id), row(b.id), row(b.id)])
        .execute()
      await links.delete(b.id)
      expect(await forgetClicksOfDeletedLinks(db)).toBe(2)
      expect(
        (await db.kysely.selectFrom('clicks').select('link_id').execute()).map((r) => r.link_id),
      ).toEqual([a.id])
    })

    it('lets exactly N clicks through the atomic click-limit step', async () => {
      const limited = await links.create(link('limited', { expiration_clicks: 3 }), [])
      const unlimited = await links.create(link('unlimited'), [])
      const redirects = new SqlRedirectStore(db)
      const taken = await Promise.all(
        Array.from({ length: 10 }, () => redirects.takeLimitedClick(limited.id)),
      )
      expect(taken.filter(Boolean).length).toBe(3)
      expect((await links.find(alice, limited.id))?.clicks).toBe(3)
      expect(await redirects.takeLimitedClick(unlimited.id)).toBe(false)
      expect((await redirects.findLink(domainId, 'limited'))?.link.id).toBe(limited.id)
    })

    it('keeps timestamps as exact epoch milliseconds', async () => {
      const created = await links.create(link('t', { ends_at: 4_102_444_800_123 }), [])
      const found = await links.find(alice, created.id)
      expect(found?.ends_at).toBe(4_102_444_800_123)
      expect(found?.created_at).toBe(T)
      expect(typeof found?.clicks).toBe('number')
    })
  })
}
