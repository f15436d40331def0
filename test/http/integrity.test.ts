/**
 * Nothing is lost or half-written: refused writes leave the stored records as they were, and
 * deletions remove exactly what the contract says (a pixel detaches, a space or domain takes
 * its links with it) and nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY_B, createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  countRows,
  createDomain,
  createLink,
  createPixel,
  createSpace,
  expectStatus,
  show,
  validation,
  type Rec,
} from './helpers.js'

let t: TestApp
let s1: Rec
let s2: Rec
let p1: Rec
let p2: Rec
let p3: Rec
let bPixel: Rec

beforeAll(async () => {
  t = await createTestApp()
  s1 = await createSpace(t, { name: 'S1' })
  s2 = await createSpace(t, { name: 'S2' })
  p1 = await createPixel(t, { name: 'P1' })
  p2 = await createPixel(t, { name: 'P2' })
  p3 = await createPixel(t, { name: 'P3' })
  bPixel = await createPixel(t, { name: 'B pixel' }, KEY_B)
})
afterAll(() => t.close())

const u = (s: string) => encodeURIComponent(s)

/** A link with a space, two pixels, a password, targeting and an expiry. */
function richLink(alias: string) {
  return createLink(
    t,
    `url=${u('https://example.com/rich')}&domain_id=${t.defaultDomainId}&alias=${alias}` +
      `&title=Rich&space_id=${s1.id}&pixel_ids[]=${p1.id}&pixel_ids[]=${p2.id}&password=pw` +
      `&expiration_date=2040-01-01&expiration_time=12:00&expiration_clicks=5&target_type=1` +
      `&country[0][key]=US&country[0][value]=${u('https://us.example/')}`,
  )
}

async function pixelIdsInDb(linkId: number): Promise<number[]> {
  const rows = await t.services.db.kysely
    .selectFrom('link_pixels')
    .select('pixel_id')
    .where('link_id', '=', linkId)
    .orderBy('pixel_id')
    .execute()
  return rows.map((r) => r.pixel_id)
}

describe('a refused link update writes nothing', () => {
  it('keeps url, title, space, pixels and lists when only the alias is invalid', async () => {
    const link = await richLink('rich-1')
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      form:
        `url=${u('https://example.com/changed')}&title=Changed&space_id=${s2.id}` +
        `&pixel_ids[]=${p3.id}&country[0][key]=FR&country[0][value]=${u('https://fr.example/')}` +
        `&password=&expiration_clicks=0&disabled=1&alias=stats`,
    })
    expectStatus(res, 422)
    expect(res.json()).toEqual(validation({ alias: ['The alias is reserved.'] }))
    expect(await show(t, `links/${link.id}`)).toEqual(link)
    expect(await pixelIdsInDb(link.id)).toEqual([p1.id, p2.id])
  })

  it('keeps the pixel set when one of the new pixels is another user’s', async () => {
    const link = await richLink('rich-2')
    const res = await t.call('PUT', `${API}/links/${link.id}`, {
      form: `pixel_ids[]=${p3.id}&pixel_ids[]=${bPixel.id}&space_id=${s2.id}`,
    })
    expectStatus(res, 422)
    expect(res.json()).toEqual(
      validation({ 'pixel_ids.1': ['The selected pixel_ids.1 is invalid.'] }),
    )
    expect(await show(t, `links/${link.id}`)).toEqual(link)
    expect(await pixelIdsInDb(link.id)).toEqual([p1.id, p2.id])
  })

  it('keeps the space when clearing the pixels is refused with a domain change', async () => {
    const other = await createDomain(t, { name: 'integrity.example.com' })
    const link = await richLink('rich-3')
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      form: `pixel_ids=&space_id=&domain_id=${other.id}`,
    })
    expectStatus(res, 422)
    expect(res.json()).toEqual(validation({ domain_id: ['The domain id cannot be changed.'] }))
    expect(await show(t, `links/${link.id}`)).toEqual(link)
    expect(await pixelIdsInDb(link.id)).toEqual([p1.id, p2.id])
  })

  it('keeps the password and expiry when privacy=2 is refused for want of a password', async () => {
    const link = await richLink('rich-4')
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      form: 'privacy=2&password=&expiration_date=&expiration_time=',
    })
    expectStatus(res, 422)
    expect(await show(t, `links/${link.id}`)).toEqual(link)
  })

  it('keeps the link when a targeting list has half an entry', async () => {
    const link = await richLink('rich-5')
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      form: `title=Other&country[0][key]=DE&pixel_ids[]=${p3.id}`,
    })
    expectStatus(res, 422)
    expect(await show(t, `links/${link.id}`)).toEqual(link)
    expect(await pixelIdsInDb(link.id)).toEqual([p1.id, p2.id])
  })
})

describe('a refused create writes nothing', () => {
  it('stores no link and no pixel attachment when the url is invalid', async () => {
    const [links, attachments] = [await countRows(t, 'links'), await countRows(t, 'link_pixels')]
    const res = await t.call('POST', `${API}/links`, {
      form:
        `url=${u('javascript:alert(1)')}&domain_id=${t.defaultDomainId}&alias=never` +
        `&space_id=${s1.id}&pixel_ids[]=${p1.id}`,
    })
    expectStatus(res, 422)
    expect(await countRows(t, 'links')).toBe(links)
    expect(await countRows(t, 'link_pixels')).toBe(attachments)
    // The alias stays free.
    expect((await createLink(t, { alias: 'never' })).alias).toBe('never')
  })
})

describe('refused updates of pixels, spaces and domains write nothing', () => {
  it('keeps a pixel whose rename to a taken name is refused along with a new value', async () => {
    const pixel = await createPixel(t, { name: 'Keep me', type: 'bing', value: 'old' })
    const res = await t.call('PATCH', `${API}/pixels/${pixel.id}`, {
      form: { name: 'P1', value: 'new-value', type: 'quora' },
    })
    expectStatus(res, 422)
    expect(await show(t, `pixels/${pixel.id}`)).toEqual(pixel)
  })

  it('keeps a space whose rename to a taken name is refused along with a new color', async () => {
    const space = await createSpace(t, { name: 'Keep space', color: 2 })
    const res = await t.call('PUT', `${API}/spaces/${space.id}`, {
      form: { name: 'S1', color: 6 },
    })
    expectStatus(res, 422)
    expect(await show(t, `spaces/${space.id}`)).toEqual(space)
  })

  it('keeps a domain whose update is refused for one bad page URL', async () => {
    const domain = await createDomain(t, {
      name: 'keep.integrity.example',
      index_page: 'https://example.com/index',
    })
    const res = await t.call('PATCH', `${API}/domains/${domain.id}`, {
      form: { index_page: 'https://example.com/new', not_found_page: 'javascript:void(0)' },
    })
    expectStatus(res, 422)
    expect(await show(t, `domains/${domain.id}`)).toEqual(domain)
  })
})

describe('deletions remove exactly what they should', () => {
  it('deleting a pixel detaches it from every link and keeps the links and other pixels', async () => {
    const pixel = await createPixel(t, { name: 'Short-lived' })
    const a = await createLink(
      t,
      `url=${u('https://example.com/a')}&domain_id=${t.defaultDomainId}&pixel_ids[]=${pixel.id}&pixel_ids[]=${p1.id}`,
    )
    const b = await createLink(
      t,
      `url=${u('https://example.com/b')}&domain_id=${t.defaultDomainId}&pixel_ids[]=${pixel.id}`,
    )
    const linksBefore = await countRows(t, 'links')
    expectStatus(await t.call('DELETE', `${API}/pixels/${pixel.id}`), 200)
    expect(await countRows(t, 'links')).toBe(linksBefore)
    expect(await show(t, `links/${a.id}`)).toEqual({ ...a, pixels: [p1] })
    expect(await show(t, `links/${b.id}`)).toEqual({ ...b, pixels: [] })
    expect(await show(t, `pixels/${p1.id}`)).toEqual(p1)
  })

  it('deleting a space deletes its links (with their pixel attachments) and nothing else', async () => {
    const space = await createSpace(t, { name: 'Going away' })
    const inside = await createLink(
      t,
      `url=${u('https://example.com/in')}&domain_id=${t.defaultDomainId}&space_id=${space.id}&pixel_ids[]=${p2.id}`,
    )
    const outside = await richLink('outside-space')
    const [links, pixels] = [await countRows(t, 'links'), await countRows(t, 'pixels')]
    expectStatus(await t.call('DELETE', `${API}/spaces/${space.id}`), 200)
    expectStatus(await t.call('GET', `${API}/links/${inside.id}`), 404)
    expect(await pixelIdsInDb(inside.id)).toEqual([])
    expect(await countRows(t, 'links')).toBe(links - 1)
    expect(await countRows(t, 'pixels')).toBe(pixels)
    expect(await show(t, `links/${outside.id}`)).toEqual(outside)
    expect(await show(t, `pixels/${p2.id}`)).toEqual(p2)
  })

  it('deleting a domain deletes its links and keeps spaces, pixels and other links', async () => {
    const domain = await createDomain(t, { name: 'going.integrity.example' })
    const on = await createLink(
      t,
      `url=${u('https://example.com/on')}&domain_id=${domain.id}&space_id=${s2.id}&pixel_ids[]=${p3.id}`,
    )
    const elsewhere = await richLink('outside-domain')
    const [links, spaces, pixels] = [
      await countRows(t, 'links'),
      await countRows(t, 'spaces'),
      await countRows(t, 'pixels'),
    ]
    expectStatus(await t.call('DELETE', `${API}/domains/${domain.id}`), 200)
    expectStatus(await t.call('GET', `${API}/links/${on.id}`), 404)
    expect(await pixelIdsInDb(on.id)).toEqual([])
    expect(await countRows(t, 'links')).toBe(links - 1)
    expect(await countRows(t, 'spaces')).toBe(spaces)
    expect(await countRows(t, 'pixels')).toBe(pixels)
    expect(await show(t, `links/${elsewhere.id}`)).toEqual(elsewhere)
    expect(await show(t, `spaces/${s2.id}`)).toEqual(s2)
  })

  it('deleting a link keeps its space and pixels', async () => {
    const link = await richLink('short-lived-link')
    const [spaces, pixels] = [await countRows(t, 'spaces'), await countRows(t, 'pixels')]
    expectStatus(await t.call('DELETE', `${API}/links/${link.id}`), 200)
    expect(await pixelIdsInDb(link.id)).toEqual([])
    expect(await countRows(t, 'spaces')).toBe(spaces)
    expect(await countRows(t, 'pixels')).toBe(pixels)
  })
})
