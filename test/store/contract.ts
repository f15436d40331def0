/**
 * The store contract: what every engine's stores must do, run against each real database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Db } from '../../src/db/connect.js'
import { namedStatements } from '../../src/db/statement-names.js'
import { aggregate } from '../../src/clicks/aggregate.js'
import type { ClickRow } from '../../src/clicks/event.js'
import { forgetClicksOfDeletedLinks } from '../../src/clicks/orphans.js'
import { clickStoreFor } from '../../src/clicks/store.js'
import { SqlDomainStore } from '../../src/domains/store.js'
import { SqlRedirectStore } from '../../src/redirects/store.js'
import { presentLinks } from '../../src/links/record.js'
import { relationsReadWith, SqlLinkStore } from '../../src/links/store.js'
import { SqlPixelStore } from '../../src/pixels/store.js'
import { SqlSpaceStore } from '../../src/spaces/store.js'
import { SqlUserStore } from '../../src/users/store.js'
import { NotFoundError } from '../../src/shared/errors.js'
import { VisitorHasher } from '../../src/clicks/visitor-hash.js'
import { eachDay, type Period } from '../../src/stats/period.js'
import { spansOf } from '../../src/stats/spans.js'
import { SqlAccountTotalsStore } from '../../src/stats/account-overview.js'
import { SqlStatsStore } from '../../src/stats/sql-store.js'
import { SqlTagStore } from '../../src/tags/store.js'
import type { StatQuery } from '../../src/stats/store.js'
import { click, writeClicks } from '../support/clicks.js'
import { newLinkRow } from '../support/owners.js'
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

    /** What a store throws on a duplicate: the engine's unique-violation error, as is. */
    const uniqueViolation = () => ({
      code: db.dialect === 'postgres' ? '23505' : 'SQLITE_CONSTRAINT_UNIQUE',
    })

    const link = (alias: string, extra: Record<string, unknown> = {}) => ({
      ...newLinkRow(alice, domainId, alias, T),
      ...extra,
    })

    it('finds users by email case-insensitively and counts them', async () => {
      expect((await users.findByEmail('ALICE@example.com'))?.id).toBe(alice)
      expect(await users.count()).toBe(2)
    })

    it('finds live keys by prefix and forgets revoked ones', async () => {
      const key = await users.addKey(
        alice,
        { prefix: 'abcdefghijkl', hash: 'f'.repeat(64), name: 'Laptop' },
        T,
      )
      expect(key).toMatchObject({ name: 'Laptop', last_used_at: null, revoked_at: null })
      expect((await users.keysByPrefix('abcdefgh')).map((k) => k.id)).toEqual([key.id])
      expect((await users.keyByHash('f'.repeat(64)))?.user_id).toBe(alice)
      await users.revokeKey(key.id, T + 1)
      expect(await users.keysByPrefix('abcdefgh')).toEqual([])
      expect(await users.keyByHash('f'.repeat(64))).toBeUndefined()
    })

    it('lists a user’s live keys newest first, records their last use, and stops a disabled user’s', async () => {
      const older = await users.addKey(
        alice,
        { prefix: 'mnopqrst0001', hash: 'a'.repeat(64), name: 'One' },
        T,
      )
      const newer = await users.addKey(
        alice,
        { prefix: 'mnopqrst0002', hash: 'b'.repeat(64), name: 'Two' },
        T,
      )
      const ids = async () =>
        (await users.keysOf(alice)).map((k) => k.id).filter((id) => id >= older.id)
      expect(await ids()).toEqual([newer.id, older.id])
      await users.markKeyUsed(older.id, T + 5)
      expect((await users.keysOf(alice)).find((k) => k.id === older.id)?.last_used_at).toBe(T + 5)
      expect((await users.usableKeysWithPrefix('mnopqrst0001')).map((k) => k.id)).toEqual([
        older.id,
      ])
      expect((await users.usableKeysWithPrefix('mnopqrst0002')).map((k) => k.id)).toEqual([
        newer.id,
      ])
      expect(await users.usableKeysWithPrefix('mnopqrst')).toEqual([])
      await users.setDisabled(alice, true, T + 6)
      expect(await users.usableKeysWithPrefix('mnopqrst0001')).toEqual([])
      expect(await users.keysByPrefix('mnopqrst')).toHaveLength(2)
      await users.setDisabled(alice, false, T + 7)
      await users.revokeKey(newer.id, T + 8)
      expect(await ids()).toEqual([older.id])
      await users.revokeKey(older.id, T + 9)
    })

    it('updates a profile and returns the row', async () => {
      const row = await users.updateProfile(
        alice,
        { name: 'Alice B', timezone: 'Europe/Paris' },
        T + 10,
      )
      expect(row).toMatchObject({
        id: alice,
        name: 'Alice B',
        timezone: 'Europe/Paris',
        updated_at: T + 10,
      })
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
      ).rejects.toMatchObject(uniqueViolation())
    })

    it('keeps space and pixel names unique per user only', async () => {
      await spaces.create(alice, { name: 'Work', color: 1 }, T)
      await spaces.create(bob, { name: 'Work', color: 2 }, T)
      await expect(spaces.create(alice, { name: 'Work', color: 3 }, T)).rejects.toMatchObject(
        uniqueViolation(),
      )
      await pixels.create(alice, { name: 'FB', type: 'facebook', value: '1' }, T)
      await pixels.create(bob, { name: 'FB', type: 'facebook', value: '2' }, T)
      await expect(
        pixels.create(alice, { name: 'FB', type: 'bing', value: '3' }, T),
      ).rejects.toMatchObject(uniqueViolation())
    })

    it('searches case-insensitively with % and _ taken literally, and sorts text the same on every engine', async () => {
      for (const name of ['b_x', 'B%y', 'a', 'Zed', 'äpfel', 'Ärger'])
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
      // Non-ASCII names: found by their ASCII letters in either case, and by their others.
      const named = async (search: string) =>
        (await spaces.list(alice, { search, sortBy: 'id' }, page)).rows.map((s) => s.name)
      expect(await named('RG')).toEqual(['Ärger'])
      expect(await named('är')).toEqual(['Ärger'])
      expect((await spaces.list(alice, { sortBy: 'name' }, page)).rows.map((s) => s.name)).toEqual([
        'a',
        'B%y',
        'b_x',
        'Zed',
        'äpfel',
        'Ärger',
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

    it('finds a link by alias, URL and title as its change commits', async () => {
      /** Aliases of alice's links that a search finds, in id order. */
      const found = async (searchBy: 'alias' | 'url' | 'title', search: string) =>
        (await links.list(alice, { searchBy, search, sortBy: 'id' }, page, T)).rows.map(
          (l) => l.alias,
        )
      const searches = async () => ({
        alias: await found('alias', 'SPRING'),
        aliasInner: await found('alias', 'ing-2'),
        url: await found('url', 'Shop.Example/Spr'),
        title: await found('title', 'fLower'),
      })

      const a = await links.create(
        link('Spring-1', { url: 'https://shop.example/spring', title: 'Flowers' }),
        [],
      )
      await links.create(link('spring-2', { url: 'https://shop.example/spring2', title: null }), [])
      await links.create(
        link('autumn', { url: 'https://shop.example/autumn', title: 'Leaves' }),
        [],
      )
      const created = {
        alias: ['Spring-1', 'spring-2'],
        aliasInner: ['spring-2'],
        url: ['Spring-1', 'spring-2'],
        title: ['Spring-1'],
      }
      expect(await searches()).toEqual(created)

      // Renamed: found by the new alias, URL and title only.
      await links.update(
        a.id,
        { alias: 'winter-1', url: 'https://shop.example/winter', title: 'Snow' },
        undefined,
      )
      const renamed = {
        alias: ['spring-2'],
        aliasInner: ['spring-2'],
        url: ['spring-2'],
        title: [],
      }
      expect(await searches()).toEqual(renamed)
      expect(await found('alias', 'inter-')).toEqual(['winter-1'])
      expect(await found('title', 'now')).toEqual(['winter-1'])
      expect(await found('url', 'example/winter')).toEqual(['winter-1'])
      expect(await found('title', 'now')).toEqual(['winter-1'])

      // Renamed twice, then deleted: found by none of its names.
      const b = await links.update(a.id, { alias: 'summer-1' }, undefined)
      await links.update(b.id, { alias: 'spring-3' }, undefined)
      expect(await found('alias', 'ring-')).toEqual(['spring-3', 'spring-2'])
      expect(await found('alias', 'summer')).toEqual([])
      await links.delete(a.id)
      const deleted = {
        alias: ['spring-2'],
        aliasInner: ['spring-2'],
        url: ['spring-2'],
        title: [],
      }
      expect(await searches()).toEqual(deleted)
      expect(await found('alias', 'ring-')).toEqual(['spring-2'])
      expect(await found('alias', 'inter-')).toEqual([])
      expect(await found('url', 'example/winter')).toEqual([])
      expect(await found('alias', 'autumn')).toEqual(['autumn'])
    })

    it('finds aliases by any inner part: renamed, deleted, non-ASCII, % and _ literal, many candidates', async () => {
      const found = async (search: string) =>
        (await links.list(alice, { searchBy: 'alias', search, sortBy: 'id' }, page, T)).rows.map(
          (l) => l.alias,
        )
      const umlaut = await links.create(link('ÄbcDé'), [])
      const sale = await links.create(link('Spring_Sale'), [])
      const dash = await links.create(link('spring-sale'), [])
      await links.create(link('Bobcat'), [])
      await links.create(link('Bob-Spring_Sale', { user_id: bob }), [])

      expect(await found('bcd')).toEqual(['ÄbcDé'])
      expect(await found('äbc')).toEqual(['ÄbcDé'])
      expect(await found('ÄBCDÉ')).toEqual(['ÄbcDé'])
      expect(await found('bcdé')).toEqual(['ÄbcDé'])
      expect(await found('bca')).toEqual(['Bobcat'])
      expect(await found('g_s')).toEqual(['Spring_Sale'])
      expect(await found('g%s')).toEqual([])
      expect(await found('ring')).toEqual(['Spring_Sale', 'spring-sale'])
      expect(await found('spring-sale-and-more')).toEqual([])
      // An alias's last three characters are found by the trigram index, and terms of one and
      // two characters, compared with every link, find the ends of aliases all the same.
      expect(await found('cat')).toEqual(['Bobcat'])
      expect(await found('ALE')).toEqual(['Spring_Sale', 'spring-sale'])
      expect(await found('dé')).toEqual(['ÄbcDé'])
      expect(await found('É')).toEqual(['ÄbcDé'])
      expect(await found('at')).toEqual(['Bobcat'])
      expect(await found('e')).toEqual(['Spring_Sale', 'spring-sale'])
      expect(await found('ÄbcDé!')).toEqual([])

      // Renamed: the old alias's inner parts are gone, the new one's found at once.
      await links.update(dash.id, { alias: 'autumn-deal' }, undefined)
      expect(await found('ring')).toEqual(['Spring_Sale'])
      expect(await found('ng-sa')).toEqual([])
      expect(await found('umn-d')).toEqual(['autumn-deal'])
      // A change of case only: the same lower-cased alias, found under its new spelling.
      await links.update(sale.id, { alias: 'SPRING_sale' }, undefined)
      expect(await found('g_s')).toEqual(['SPRING_sale'])
      // Another field changed: the alias is still found.
      await links.update(umlaut.id, { title: 'Umlaut' }, undefined)
      expect(await found('bcd')).toEqual(['ÄbcDé'])
      await links.delete(umlaut.id)
      expect(await found('bcd')).toEqual([])
      expect(await found('bca')).toEqual(['Bobcat'])

      // Many matches.
      const many = Array.from({ length: 1200 }, (_, i) =>
        link(`many-${String(i).padStart(4, '0')}`),
      )
      await db.kysely.insertInto('links').values(many).execute()
      const count = async (search: string) =>
        (await links.list(alice, { searchBy: 'alias', search, sortBy: 'id' }, page, T)).total
      expect(await count('many')).toBe(1200)
      expect(await count('any-1')).toBe(200)
      expect(await found('y-0999')).toEqual(['many-0999'])
      expect(await found('many-12')).toEqual([])
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
      expect(
        [...(await links.pixelIdsOf([b.id, a.id])).entries()].sort((x, y) => x[0] - y[0]),
      ).toEqual([
        [a.id, [p1.id, p2.id]],
        [b.id, [p1.id]],
      ])
      expect([...(await links.pixelIdsOf([b.id, b.id + 1000])).keys()]).toEqual([b.id])
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

    it("counts a tag's links, their clicks, pixels, spaces and days on the Overview, never others'", async () => {
      const tags = new SqlTagStore(db)
      const totals = new SqlAccountTotalsStore(db)
      const [tag, empty] = (await tags.ensure(alice, ['Spring', 'Empty'], T)).tags
      const bobs = (await tags.ensure(bob, ['Spring'], T)).tags[0]!
      const p1 = await pixels.create(alice, { name: 'one', type: 'bing', value: '1' }, T)
      const p2 = await pixels.create(alice, { name: 'two', type: 'bing', value: '2' }, T)
      const s1 = await spaces.create(alice, { name: 'S1', color: 1 }, T)
      const s2 = await spaces.create(alice, { name: 'S2', color: 1 }, T)
      const a = await links.create(
        link('a', { space_id: s1.id, created_at: T + 5 }),
        [p1.id],
        [tag!.id],
      )
      const b = await links.create(link('b', { created_at: T + 1 }), [p1.id], [tag!.id])
      const c = await links.create(link('c', { space_id: s2.id }), [p2.id])
      const d = await links.create(
        { ...newLinkRow(bob, domainId, 'd', T), created_at: T - 5 },
        [],
        [bobs.id],
      )
      await writeClicks(db, [
        ...Array.from({ length: 2 }, () => click(a.id, '2026-03-01T10:00:00Z')),
        ...Array.from({ length: 3 }, () => click(b.id, '2026-03-02T10:00:00Z')),
        ...Array.from({ length: 4 }, () => click(c.id, '2026-03-01T11:00:00Z')),
        ...Array.from({ length: 5 }, () => click(d.id, '2026-03-01T12:00:00Z')),
      ])
      const period = { from: '2026-03-01', to: '2026-03-31' }
      expect(await totals.totals(alice)).toEqual({ links: 3, clicks: 9, pixels: 2, spaces: 2 })
      expect(await totals.totals(alice, tag!.id)).toEqual({
        links: 2,
        clicks: 5,
        pixels: 1,
        spaces: 1,
      })
      expect(await totals.totals(alice, empty!.id)).toEqual({
        links: 0,
        clicks: 0,
        pixels: 0,
        spaces: 0,
      })
      // Another user's tag id counts none of the user's links.
      expect(await totals.totals(alice, bobs.id)).toEqual({
        links: 0,
        clicks: 0,
        pixels: 0,
        spaces: 0,
      })
      expect([...(await totals.clicksPerDay(alice, period))].sort()).toEqual([
        ['2026-03-01', 6],
        ['2026-03-02', 3],
      ])
      expect([...(await totals.clicksPerDay(alice, period, tag!.id))].sort()).toEqual([
        ['2026-03-01', 2],
        ['2026-03-02', 3],
      ])
      expect(await totals.clicksPerDay(alice, period, bobs.id)).toEqual(new Map())
      expect(await tags.oldestLinkAt(tag!.id)).toBe(T + 1)
      expect(await tags.oldestLinkAt(empty!.id)).toBeNull()
    })

    it('presents a link read with its domain and pixels as one read alone, and from the read that brought them', async () => {
      const presenter = { links, domains, spaces, pixels }
      const p1 = await pixels.create(alice, { name: 'one', type: 'bing', value: '1' }, T)
      const p2 = await pixels.create(alice, { name: 'two', type: 'bing', value: '2' }, T)
      const p3 = await pixels.create(alice, { name: 'three', type: 'bing', value: '3' }, T)
      const space = await spaces.create(alice, { name: 'S', color: 1 }, T)
      const a = await links.create(link('with-all', { space_id: space.id }), [p3.id, p1.id])
      const b = await links.create(link('with-none'), [])
      const alone = async (id: number) =>
        presentLinks(presenter, alice, [(await links.findById(id))!])
      const found = async (id: number) => {
        const row = (await links.find(alice, id))!
        // PostgreSQL reads the relations with the row (one round trip); SQLite reads them apart.
        expect(relationsReadWith(row) !== undefined).toBe(db.dialect === 'postgres')
        return presentLinks(presenter, alice, [row])
      }
      const [record] = await found(a.id)
      expect(record!.pixels.map((p) => p.name)).toEqual(['one', 'three'])
      expect(record!.domain).toMatchObject({
        id: domainId,
        name: 'short.test',
        url: 'https://short.test',
      })
      expect(record!.space?.name).toBe('S')
      expect([record]).toEqual(await alone(a.id))
      expect(await found(b.id)).toEqual(await alone(b.id))
      expect((await found(b.id))[0]!.pixels).toEqual([])
      const searched = await links.list(
        alice,
        { search: 'with', searchBy: 'alias', sortBy: 'id' },
        page,
        T,
      )
      expect(searched.rows.map((r) => r.alias)).toEqual(['with-all', 'with-none'])
      expect(searched.rows.map((r) => relationsReadWith(r) !== undefined)).toEqual(
        searched.rows.map(() => db.dialect === 'postgres'),
      )
      expect(await presentLinks(presenter, alice, searched.rows)).toEqual([
        ...(await alone(a.id)),
        ...(await alone(b.id)),
      ])
      // A row read before a change keeps what was read with it; the next read sees the change.
      const before = (await links.find(alice, a.id))!
      await links.update(a.id, { updated_at: T + 1 }, [p2.id])
      await domains.update(domainId, { url: 'https://renamed.test' }, T + 1)
      const [after] = await found(a.id)
      expect(after!.pixels.map((p) => p.name)).toEqual(['two'])
      expect(after!.domain.url).toBe('https://renamed.test')
      expect(after!.short_url).toBe('https://renamed.test/with-all')
      const [old] = await presentLinks(presenter, alice, [before])
      expect(old!.domain.url).toBe(
        db.dialect === 'postgres' ? 'https://short.test' : 'https://renamed.test',
      )
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

    it('keeps at most 64 sets of columns of an update prepared, and stores any other set all the same', async () => {
      const a = await links.create(link('shapes'), [])
      const columns = {
        title: 'Shaped',
        url: 'https://example.com/shaped',
        disabled: 1,
        privacy: 1,
        ends_at: T + 5,
        expiration_clicks: 9,
        expiration_url: 'https://example.com/after',
      }
      const named = namedStatements()
      // 70 sets of these columns, each with updated_at.
      const sets = Array.from({ length: 70 }, (_, i) =>
        Object.keys(columns).filter((_, bit) => ((i + 1) >> bit) & 1),
      )
      for (const [i, set] of sets.entries()) {
        const changes = Object.fromEntries(
          set.map((column) => [column, columns[column as keyof typeof columns]]),
        )
        const updated = await links.update(a.id, { ...changes, updated_at: T + i }, undefined)
        expect(updated).toMatchObject({ ...changes, updated_at: T + i })
      }
      // On PostgreSQL, a prepared set is a statement named on each connection.
      expect(namedStatements() - named).toBeLessThanOrEqual(64)
      expect(await links.find(alice, a.id)).toMatchObject({ ...columns, updated_at: T + 69 })
    })

    it('updates the columns given, whichever they are from call to call, and no other link', async () => {
      const a = await links.create(link('upd-a'), [])
      const b = await links.create(link('upd-b'), [])
      // The same columns twice with other values, then other columns, then undefined ones.
      expect((await links.update(a.id, { title: 'One', updated_at: T + 1 }, undefined)).title).toBe(
        'One',
      )
      const two = await links.update(a.id, { title: 'Two', updated_at: T + 2 }, undefined)
      expect([two.title, two.updated_at, two.url]).toEqual([
        'Two',
        T + 2,
        'https://example.com/upd-a',
      ])
      const urlOnly = await links.update(
        a.id,
        { url: 'https://example.com/two', updated_at: T + 2 },
        undefined,
      )
      expect([urlOnly.title, urlOnly.url]).toEqual(['Two', 'https://example.com/two'])
      const three = await links.update(
        a.id,
        { url: 'https://example.com/three', disabled: 1, title: undefined, updated_at: T + 3 },
        undefined,
      )
      expect([three.title, three.url, three.disabled, three.updated_at]).toEqual([
        'Two',
        'https://example.com/three',
        1,
        T + 3,
      ])
      expect(await links.find(alice, a.id)).toEqual(three)
      const other = await links.find(alice, b.id)
      expect([other?.title, other?.url, other?.disabled]).toEqual([
        null,
        'https://example.com/upd-b',
        0,
      ])
      // More sets of columns than are kept prepared, each given in two orders: every update
      // still writes exactly its columns.
      const flags = [
        'disabled',
        'privacy',
        'title_locked',
        'target_type',
        'clicks',
        'ends_at',
        'expiration_clicks',
      ] as const
      for (let set = 1; set <= 70; set++) {
        const changes: Record<string, number> = { updated_at: T + 10 + set }
        flags.forEach((flag, bit) => {
          if (set & (1 << bit)) changes[flag] = set
        })
        const reversed = Object.fromEntries(Object.entries(changes).reverse())
        for (const given of [changes, reversed]) {
          const after = await links.update(a.id, given as never, undefined)
          for (const flag of flags) {
            const was = set & (1 << flags.indexOf(flag)) ? set : undefined
            if (was !== undefined) expect(after[flag]).toBe(was)
          }
          expect([after.updated_at, after.url, after.title]).toEqual([
            T + 10 + set,
            'https://example.com/three',
            'Two',
          ])
        }
      }
      // A link deleted meanwhile is not found, and nothing is written.
      await links.delete(b.id)
      await expect(links.update(b.id, { title: 'Late', updated_at: T + 4 }, [])).rejects.toThrow(
        NotFoundError,
      )
      expect(await links.find(alice, b.id)).toBeUndefined()
    })

    it('keeps targeting lists as JSON in the table and hands them over as lists on every read', async () => {
      const country = [{ key: 'DE', value: 'https://example.com/de' }]
      const rotation = [{ value: 'https://example.com/r1' }, { value: 'https://example.com/r2' }]
      const created = await links.create(
        link('lists', { country_target: country, rotation_target: rotation }),
        [],
      )
      const stored = () =>
        db.kysely
          .selectFrom('links')
          .select(['country_target', 'platform_target', 'rotation_target'])
          .where('id', '=', created.id)
          .executeTakeFirstOrThrow()
      expect(await stored()).toEqual({
        country_target: '[{"key":"DE","value":"https://example.com/de"}]',
        platform_target: null,
        rotation_target: '[{"value":"https://example.com/r1"},{"value":"https://example.com/r2"}]',
      })
      const lists = (row: { country_target: unknown; rotation_target: unknown } | undefined) => [
        row?.country_target,
        row?.rotation_target,
      ]
      const filter = { searchBy: 'alias', sortBy: 'id' } as const
      const reads = [
        created,
        await links.find(alice, created.id),
        await links.findById(created.id),
        await links.findByAlias(domainId, 'lists'),
        (await links.list(alice, filter, page, T)).rows[0],
        (await links.list(alice, { ...filter, search: 'lists' }, page, T)).rows[0],
        (await links.first(alice, filter, T, 1, 'asc'))[0],
        (await links.listAfter(alice, filter, T, 0, 1))[0],
        (await links.rowsOf({ domainId }))[0],
        (await new SqlRedirectStore(db).findLink(domainId, 'lists'))?.link,
      ]
      for (const read of reads) expect(lists(read)).toEqual([country, rotation])
      // An update writes the lists it is given, clears one given as null, and leaves the rest.
      const platform = [{ key: 'iOS', value: 'https://example.com/ios' }]
      const updated = await links.update(
        created.id,
        { platform_target: platform, rotation_target: null, updated_at: T + 1 },
        undefined,
      )
      expect([updated.country_target, updated.platform_target, updated.rotation_target]).toEqual([
        country,
        platform,
        null,
      ])
      expect(await stored()).toEqual({
        country_target: '[{"key":"DE","value":"https://example.com/de"}]',
        platform_target: '[{"key":"iOS","value":"https://example.com/ios"}]',
        rotation_target: null,
      })
    })

    it('refuses a second link with the same alias on a domain, case-sensitively', async () => {
      await links.create(link('Promo'), [])
      await links.create(link('promo'), [])
      expect(await links.aliasTaken(domainId, 'Promo')).toBe(true)
      expect(await links.aliasTaken(domainId, 'PROMO')).toBe(false)
      await expect(links.create(link('Promo'), [])).rejects.toMatchObject(uniqueViolation())
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
      const row = (
        link_id: number,
        visitor: string,
        country: string | null,
        over: Partial<ClickRow> = {},
      ): ClickRow => ({
        link_id,
        at,
        country,
        platform: 'Windows',
        browser: 'Chrome',
        device: 'desktop',
        language: 'de',
        referrer: null,
        visitor,
        region: null,
        city: null,
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        destination: 'https://example.com/a',
        source: 'link',
        ...over,
      })
      const rows = [
        row(a.id, 'v1', 'DE', {
          region: 'Bavaria',
          city: 'Munich',
          utm_source: 'news',
          utm_medium: 'email',
          utm_campaign: 'spring',
          source: 'qr',
        }),
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
        deliveries: [],
      })
      // The same visitor again on the same day is not a new unique visitor.
      await store.write({
        rows: [row(a.id, 'v2', 'DE')],
        aggregate: aggregate([row(a.id, 'v2', 'DE')], [false]),
        rotations: new Map(),
        deliveries: [],
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
      // Every dimension per day; countries, referrers, regions and cities per month too.
      const day = (dimension: string, value: string, clicks: number) => ({
        link_id: a.id,
        dimension,
        day: '2026-05-01',
        value,
        clicks,
      })
      const month = (dimension: string, value: string, clicks: number) => ({
        ...day(`${dimension}/month`, value, clicks),
        day: '2026-05',
      })
      expect(stats).toEqual([
        day('browser', 'Chrome', 4),
        day('city', '', 3),
        day('city', 'Munich\u001fDE', 1),
        month('city', '', 3),
        month('city', 'Munich\u001fDE', 1),
        day('country', '', 1),
        day('country', 'DE', 3),
        month('country', '', 1),
        month('country', 'DE', 3),
        day('destination', 'https://example.com/a', 4),
        day('device', 'desktop', 4),
        day('hour', '13', 4),
        day('language', 'de', 4),
        day('platform', 'Windows', 4),
        day('referrer', '', 4),
        month('referrer', '', 4),
        day('region', '', 3),
        day('region', 'Bavaria\u001fDE', 1),
        month('region', '', 3),
        month('region', 'Bavaria\u001fDE', 1),
        day('source', 'link', 3),
        day('source', 'qr', 1),
        day('total', '', 4),
        day('utm_campaign', '', 3),
        day('utm_campaign', 'spring', 1),
        day('utm_medium', '', 3),
        day('utm_medium', 'email', 1),
        day('utm_source', '', 3),
        day('utm_source', 'news', 1),
        day('visitors', '', 2),
      ])
      const logged = await db.kysely.selectFrom('clicks').select('link_id').execute()
      expect(logged.map((r) => r.link_id).sort()).toEqual([a.id, a.id, a.id, a.id, b.id].sort())
    })

    it('writes a batch’s webhook deliveries in its transaction: both or neither', async () => {
      const a = await links.create(link('a'), [])
      const now = Date.UTC(2026, 4, 1, 13, 30)
      const hook = await db.kysely
        .insertInto('webhooks')
        .values({
          user_id: alice,
          url: 'https://hooks.example/',
          events: '["click.recorded"]',
          active: 1,
          secret: 'whsec_x',
          failing_since: null,
          disabled_reason: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      const delivery = (webhookId: number, messageId: string) => ({
        webhook_id: webhookId,
        message_id: messageId,
        type: 'click.recorded',
        payload: '{"type":"click.recorded"}',
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: now,
        lease_until: null,
        last_attempt_at: null,
        last_status_code: null,
        last_duration_ms: null,
        last_error: null,
        created_at: now,
      })
      const rows = [click(a.id, '2026-05-01T13:30:00Z')]
      const batch = { rows, aggregate: aggregate(rows, [false]), rotations: new Map() }
      const store = clickStoreFor(db)
      await store.write({ ...batch, deliveries: [delivery(hook.id, 'msg_1')] })
      // A delivery that cannot be written (no such webhook) takes its clicks back with it.
      await expect(
        store.write({ ...batch, deliveries: [delivery(hook.id + 1000, 'msg_2')] }),
      ).rejects.toThrow()
      const clicks = await db.kysely.selectFrom('clicks').select('link_id').execute()
      expect(clicks).toEqual([{ link_id: a.id }])
      const queued = await db.kysely.selectFrom('webhook_outbox').select('message_id').execute()
      expect(queued).toEqual([{ message_id: 'msg_1' }])
      expect((await links.find(alice, a.id))?.clicks).toBe(1)
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
      expect(taken.filter((t) => t === 'taken').length).toBe(2)
      expect(taken.filter((t) => t === 'last').length).toBe(1)
      expect(taken.filter((t) => t === 'refused').length).toBe(7)
      expect((await links.find(alice, limited.id))?.clicks).toBe(3)
      expect(await redirects.takeLimitedClick(unlimited.id)).toBe('refused')
      expect((await redirects.findLink(domainId, 'limited'))?.link.id).toBe(limited.id)
    })

    it('keeps a click taken while another request’s transaction is open, when that one rolls back', async () => {
      const limited = await links.create(link('limited-txn', { expiration_clicks: 5 }), [])
      const redirects = new SqlRedirectStore(db)
      let release!: () => void
      const gate = new Promise<void>((resolve) => (release = resolve))
      let inside = false
      const failing = db.transaction(async () => {
        await links.create(link('rolled-back'), [])
        inside = true
        await gate
        throw new Error('rolled back')
      })
      while (!inside) await new Promise((resolve) => setImmediate(resolve))
      const taking = Promise.resolve(redirects.takeLimitedClick(limited.id))
      release()
      await expect(failing).rejects.toThrow('rolled back')
      expect(await taking).toBe('taken')
      expect((await links.find(alice, limited.id))?.clicks).toBe(1)
      expect(await redirects.findLink(domainId, 'rolled-back')).toBeUndefined()
    })

    it('keeps timestamps as exact epoch milliseconds', async () => {
      const created = await links.create(link('t', { ends_at: 4_102_444_800_123 }), [])
      const found = await links.find(alice, created.id)
      expect(found?.ends_at).toBe(4_102_444_800_123)
      expect(found?.created_at).toBe(T)
      expect(typeof found?.clicks).toBe('number')
    })

    it('sums statistics over any period from whole months and the days around them, exactly', async () => {
      const a = await links.create(link('a'), [])
      // One click a day from 2025-12-20 to 2026-03-10, from a referrer chosen by the day.
      const days = eachDay({ from: '2025-12-20', to: '2026-03-10' })
      const hosts = (day: string) => `r${Number(day.slice(8)) % 7}.example`
      await writeClicks(
        db,
        days.map((day) => click(a.id, `${day}T12:00:00Z`, { referrer: hosts(day) })),
      )
      const stats = new SqlStatsStore(db)
      const sums = async (period: Period, monthly: string | null) =>
        (
          await stats.sums({
            linkId: a.id,
            spans: spansOf(period, 'referrer', monthly),
            key: 'value',
            order: { by: 'value', direction: 'asc' },
            limit: 100,
            offset: 0,
          })
        ).rows
      for (const [from, to] of [
        ['2025-12-20', '2026-03-10'],
        ['2026-01-01', '2026-01-31'],
        ['2025-12-31', '2026-02-01'],
        ['2026-01-02', '2026-02-27'],
        ['2026-02-01', '2026-02-28'],
        ['2026-01-15', '2026-01-15'],
        ['2025-11-01', '2026-12-31'],
      ] as const) {
        const expected = new Map<string, number>()
        for (const day of days.filter((d) => d >= from && d <= to))
          expected.set(hosts(day), (expected.get(hosts(day)) ?? 0) + 1)
        const want = [...expected].sort().map(([value, count]) => ({ value, count }))
        expect(await sums({ from, to }, 'referrer/month'), `${from} ${to}`).toEqual(want)
        expect(await sums({ from, to }, null), `${from} ${to} by days`).toEqual(want)
      }
    })

    it('orders statistics by count, ties by value in byte order, and pages them with their total', async () => {
      const a = await links.create(link('a'), [])
      const values = ['b', 'B', 'a', 'Z', '_x', 'é', '', 'a', 'Z']
      await writeClicks(
        db,
        values.map((browser) => click(a.id, '2026-05-01T10:00:00Z', { browser })),
      )
      const stats = new SqlStatsStore(db)
      const query = (over: Partial<StatQuery>): StatQuery => ({
        linkId: a.id,
        spans: [{ dimension: 'browser', from: '2026-05-01', to: '2026-05-01' }],
        key: 'value',
        order: { by: 'count', direction: 'desc' },
        limit: 100,
        offset: 0,
        ...over,
      })
      const order = async (over: Partial<StatQuery>) =>
        (await stats.sums(query(over))).rows.map((r) => `${r.value}:${r.count}`)
      expect(await order({})).toEqual(['Z:2', 'a:2', ':1', 'B:1', '_x:1', 'b:1', 'é:1'])
      expect(await order({ order: { by: 'count', direction: 'asc' } })).toEqual([
        ':1',
        'B:1',
        '_x:1',
        'b:1',
        'é:1',
        'Z:2',
        'a:2',
      ])
      expect(await order({ order: { by: 'value', direction: 'desc' } })).toEqual([
        'é:1',
        'b:1',
        'a:2',
        '_x:1',
        'Z:2',
        'B:1',
        ':1',
      ])
      expect(await stats.sums(query({ limit: 3, offset: 3 }))).toEqual({
        rows: [
          { value: 'B', count: 1 },
          { value: '_x', count: 1 },
          { value: 'b', count: 1 },
        ],
        total: 7,
      })
      expect(await stats.sums(query({ limit: 3, offset: 9 }))).toEqual({ rows: [], total: 7 })
      const perDay = await stats.sums(
        query({
          spans: [{ dimension: 'total', from: '2026-04-01', to: '2026-05-31' }],
          key: 'day',
        }),
      )
      expect(perDay).toEqual({ rows: [{ value: '2026-05-01', count: 9 }], total: 1 })
    })

    it('keeps the visitor salt of a day only until the day after it is over', async () => {
      const hasher = new VisitorHasher(db)
      await hasher.prepare(['2026-05-01'])
      const first = hasher.hash('2026-05-01', 1, '192.0.2.1', 'UA')
      await hasher.prepare(['2026-05-02'])
      expect(hasher.hash('2026-05-02', 1, '192.0.2.1', 'UA')).not.toBe(first)
      await hasher.prepare(['2026-05-03'])
      const salts = await db.kysely
        .selectFrom('settings')
        .select('name')
        .where('name', 'like', 'visitor_salt:%')
        .orderBy('name')
        .execute()
      expect(salts.map((r) => r.name)).toEqual([
        'visitor_salt:2026-05-02',
        'visitor_salt:2026-05-03',
      ])
      expect(() => hasher.hash('2026-05-01', 1, '192.0.2.1', 'UA')).toThrow(
        new Error('no visitor salt loaded for 2026-05-01'),
      )
    })
  })
}
