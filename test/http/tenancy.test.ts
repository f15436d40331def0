/** Tenancy: another user's resources answer exactly like missing ones, and never show up. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY_B, createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  FORBIDDEN,
  NOT_FOUND,
  createDomain,
  createLink,
  createPixel,
  createSpace,
  expectStatus,
  jsonContentType,
  listIds,
  show,
  validation,
  type Rec,
} from './helpers.js'

let t: TestApp
/** User A's resources, by API path segment. */
const mine: Record<string, Rec> = {}
/** User B's resources. */
const theirs: Record<string, Rec> = {}

beforeAll(async () => {
  t = await createTestApp()
  mine.spaces = await createSpace(t, { name: 'A space' })
  mine.pixels = await createPixel(t, { name: 'A pixel' })
  mine.domains = await createDomain(t, { name: 'a.tenancy.example' })
  mine.links = await createLink(
    t,
    `url=${encodeURIComponent('https://example.com/a')}&domain_id=${mine.domains.id}` +
      `&alias=a-link&space_id=${mine.spaces.id}&pixel_ids[]=${mine.pixels.id}`,
  )
  theirs.spaces = await createSpace(t, { name: 'B space' }, KEY_B)
  theirs.pixels = await createPixel(t, { name: 'B pixel' }, KEY_B)
  theirs.domains = await createDomain(t, { name: 'b.tenancy.example' }, KEY_B)
  theirs.links = await createLink(t, { alias: 'b-link' }, KEY_B)
})
afterAll(() => t.close())

const RESOURCES = ['links', 'pixels', 'spaces', 'domains'] as const
const BODIES: Record<(typeof RESOURCES)[number], Record<string, string>> = {
  links: { url: 'https://example.com/hijacked' },
  pixels: { name: 'Hijacked' },
  spaces: { name: 'Hijacked' },
  domains: { index_page: 'https://example.com/hijacked' },
}

describe('another user’s resource answers 404 exactly like a missing one', () => {
  for (const resource of RESOURCES) {
    it(`GET of A's ${resource} record by user B is 404`, async () => {
      const res = await t.call('GET', `${API}/${resource}/${mine[resource]!.id}`, { key: KEY_B })
      expectStatus(res, 404)
      jsonContentType(res)
      expect(res.json()).toEqual(NOT_FOUND)
    })

    for (const method of ['PUT', 'PATCH'] as const) {
      it(`${method} of A's ${resource} record by user B is 404 and changes nothing`, async () => {
        const res = await t.call(method, `${API}/${resource}/${mine[resource]!.id}`, {
          key: KEY_B,
          form: BODIES[resource],
        })
        expectStatus(res, 404)
        expect(res.json()).toEqual(NOT_FOUND)
        expect(await show(t, `${resource}/${mine[resource]!.id}`)).toEqual(mine[resource])
      })
    }

    it(`${resource}: an invalid body from user B still gets 404, not 422`, async () => {
      const res = await t.call('PATCH', `${API}/${resource}/${mine[resource]!.id}`, {
        key: KEY_B,
        form: { name: '', url: 'javascript:alert(1)', index_page: 'nope', color: 99 },
      })
      expectStatus(res, 404)
      expect(res.json()).toEqual(NOT_FOUND)
    })

    it(`DELETE of A's ${resource} record by user B is 404 and deletes nothing`, async () => {
      const res = await t.call('DELETE', `${API}/${resource}/${mine[resource]!.id}`, {
        key: KEY_B,
      })
      expectStatus(res, 404)
      expect(res.json()).toEqual(NOT_FOUND)
      expect(await show(t, `${resource}/${mine[resource]!.id}`)).toEqual(mine[resource])
    })
  }
})

describe('lists', () => {
  it.each(RESOURCES)('B’s %s list never shows A’s records', async (resource) => {
    const bIds = await listIds(t, `${resource}?per_page=100`, KEY_B)
    expect(bIds).not.toContain(mine[resource]!.id)
    expect(bIds).toContain(theirs[resource]!.id)
    const aIds = await listIds(t, `${resource}?per_page=100`)
    expect(aIds).not.toContain(theirs[resource]!.id)
    expect(aIds).toContain(mine[resource]!.id)
  })

  it('B filtering links by A’s space, domain or pixel gets an empty list', async () => {
    for (const filter of [
      `space_id=${mine.spaces!.id}`,
      `domain_id=${mine.domains!.id}`,
      `pixel_id=${mine.pixels!.id}`,
    ]) {
      const res = await t.call('GET', `${API}/links?${filter}`, { key: KEY_B })
      expectStatus(res, 200)
      expect(res.json().data).toEqual([])
      expect(res.json().meta.total).toBe(0)
    }
  })

  it('B’s search never matches A’s links', async () => {
    expect(await listIds(t, 'links?search=a-link&search_by=alias', KEY_B)).toEqual([])
    expect(await listIds(t, 'links?search=example.com/a&search_by=url', KEY_B)).toEqual([])
  })

  it('lists the global domain for both users', async () => {
    expect(await listIds(t, 'domains?per_page=100')).toContain(t.defaultDomainId)
    expect(await listIds(t, 'domains?per_page=100', KEY_B)).toContain(t.defaultDomainId)
  })
})

describe('using another user’s resources in a link', () => {
  it('B cannot create a link on A’s domain, in A’s space, or with A’s pixel', async () => {
    const res = await t.call('POST', `${API}/links`, {
      key: KEY_B,
      form:
        `url=${encodeURIComponent('https://example.com/b')}&domain_id=${mine.domains!.id}` +
        `&space_id=${mine.spaces!.id}&pixel_ids[]=${mine.pixels!.id}`,
    })
    expectStatus(res, 422)
    expect(res.json()).toEqual(
      validation({
        domain_id: ['The selected domain id is invalid.'],
        space_id: ['The selected space id is invalid.'],
        'pixel_ids.0': ['The selected pixel_ids.0 is invalid.'],
      }),
    )
  })

  it('B cannot move B’s link into A’s space or attach A’s pixel', async () => {
    const res = await t.call('PATCH', `${API}/links/${theirs.links!.id}`, {
      key: KEY_B,
      form: `space_id=${mine.spaces!.id}&pixel_ids[]=${mine.pixels!.id}`,
    })
    expectStatus(res, 422)
    expect(res.json()).toEqual(
      validation({
        space_id: ['The selected space id is invalid.'],
        'pixel_ids.0': ['The selected pixel_ids.0 is invalid.'],
      }),
    )
    expect(await show(t, `links/${theirs.links!.id}`, KEY_B)).toEqual(theirs.links)
  })

  it('both users can use the global domain, and see it as read-only (403)', async () => {
    for (const key of [undefined, KEY_B]) {
      const link = await createLink(t, {}, key)
      expect(link.domain).toMatchObject({ id: t.defaultDomainId, global: true })
      const res = await t.call('PATCH', `${API}/domains/${t.defaultDomainId}`, {
        form: { index_page: 'https://example.com/mine' },
        ...(key ? { key } : {}),
      })
      expectStatus(res, 403)
      expect(res.json()).toEqual(FORBIDDEN)
    }
  })
})
