/** Links list: every filter and sort of the seed, the paging envelope, strict parameters. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY_B, createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  BASE,
  LIST_KEYS,
  PAGE_LINK_KEYS,
  PAGE_META_KEYS,
  createDomain,
  createLink,
  createPixel,
  createSpace,
  expectStatus,
  listIds,
  setClicks,
  validation,
  type Rec,
} from './helpers.js'

const KEY_C = 'test-key-user-c-paging-0123456789'
const PATH = `${BASE}/api/v1/links`

let t: TestApp
let d2: Rec
let s1: Rec
let s2: Rec
let p1: Rec
let p2: Rec
/** L[1]…L[6]: the fixture links of user A, by number. */
const L: number[] = []
/** User C's 23 links, in creation order. */
const C: number[] = []

beforeAll(async () => {
  t = await createTestApp()
  d2 = await createDomain(t, { name: 'lists.example' })
  s1 = await createSpace(t, { name: 'S1' })
  s2 = await createSpace(t, { name: 'S2' })
  p1 = await createPixel(t, { name: 'P1' })
  p2 = await createPixel(t, { name: 'P2' })
  const u = (s: string) => encodeURIComponent(s)
  const d = t.defaultDomainId
  const forms = [
    // 1: active, space S1, pixel P1, 5 clicks
    `url=${u('https://one.example/100%_off')}&domain_id=${d}&alias=alpha&title=${u('Summer Sale')}&space_id=${s1.id}&pixel_ids[]=${p1.id}`,
    // 2: disabled, 5 clicks
    `url=${u('https://two.example/path')}&domain_id=${d}&alias=beta_2&title=${u('summer%deal')}&disabled=1`,
    // 3: expired by date
    `url=${u('https://three.example/x_y')}&domain_id=${d}&alias=Gamma&title=Winter&expiration_date=2001-01-01&expiration_time=00:00`,
    // 4: expired by clicks (3 of 3), own domain
    `url=${u('https://four.example/')}&domain_id=${d2.id}&alias=delta&title=autumn&expiration_clicks=3`,
    // 5: active: 2 of 10 clicks, expiry in the future, space S2, pixels P1 and P2
    `url=${u('https://five.example/')}&domain_id=${d}&alias=eps&title=Spring&space_id=${s2.id}&pixel_ids[]=${p1.id}&pixel_ids[]=${p2.id}&expiration_clicks=10&expiration_date=2090-01-01&expiration_time=00:00`,
    // 6: disabled and past its expiry: disabled, not expired
    `url=${u('https://six.example/')}&domain_id=${d}&alias=zeta&title=${u('ZZ top')}&disabled=1&expiration_date=2001-01-01&expiration_time=00:00`,
  ]
  L.push(0)
  for (const form of forms) L.push((await createLink(t, form)).id)
  await setClicks(t, L[1]!, 5)
  await setClicks(t, L[2]!, 5)
  await setClicks(t, L[4]!, 3)
  await setClicks(t, L[5]!, 2)
  // Another user's link that matches most filters: never listed for A.
  await createLink(t, { alias: 'b-summer', title: 'Summer B', url: 'https://one.example/b' }, KEY_B)

  await t.services.users.createUser({ email: 'c@example.com', name: 'Carol', apiKey: KEY_C })
  for (let i = 1; i <= 23; i++) {
    const link = await createLink(
      t,
      { title: `Link ${String(i).padStart(2, '0')}`, alias: `c-${i}` },
      KEY_C,
    )
    C.push(link.id)
  }
})
afterAll(() => t.close())

const ids = (...numbers: number[]) => numbers.map((n) => L[n]!)
const all = (query = '') => listIds(t, `links?per_page=100${query}`)

describe('search', () => {
  it('searches titles by default, case-insensitively', async () => {
    expect(await all('&search=summer')).toEqual(ids(2, 1))
    expect(await all('&search=SUMMER')).toEqual(ids(2, 1))
    expect(await all('&search=summer&search_by=title')).toEqual(ids(2, 1))
  })

  it('treats % literally in a title search', async () => {
    expect(await all('&search=%25')).toEqual(ids(2))
    expect(await all('&search=r%25d')).toEqual(ids(2))
  })

  it('treats _ literally in an alias search', async () => {
    expect(await all('&search=_&search_by=alias')).toEqual(ids(2))
  })

  it('searches aliases case-insensitively', async () => {
    expect(await all('&search=GAM&search_by=alias')).toEqual(ids(3))
    expect(await all('&search=ta&search_by=alias')).toEqual(ids(6, 4, 2))
    // Terms too short for the index are compared with each alias, in either case too.
    expect(await all('&search=GA&search_by=alias')).toEqual(ids(3))
    expect(await all('&search=aM&search_by=alias')).toEqual(ids(3))
  })

  it('search_by=all finds a link by its alias, its URL or its title, each link once', async () => {
    // "ta" is in the aliases beta_2, delta and zeta; "one" in link 1's URL only; "spring" in a title.
    expect(await all('&search=ta&search_by=all')).toEqual(ids(6, 4, 2))
    expect(await all('&search=ONE.EX&search_by=all')).toEqual(ids(1))
    expect(await all('&search=spring&search_by=all')).toEqual(ids(5))
    // "e.example/" is in the URLs of one, three and five; "summer" in titles 1 and 2.
    expect(await all('&search=e.example/&search_by=all')).toEqual(ids(5, 3, 1))
    expect(await all('&search=summer&search_by=all')).toEqual(ids(2, 1))
    // Short terms (no index) and the other filters combine with it.
    expect(await all('&search=ep&search_by=all')).toEqual(ids(5))
    expect(await all('&search=ta&search_by=all&status=3')).toEqual(ids(6, 2))
    // A term in both the alias and the URL of one link lists it once.
    const both = await createLink(t, { alias: 'twofold', url: 'https://twofold.example/' })
    expect(await all('&search=twofold&search_by=all')).toEqual([both.id])
    expectStatus(await t.call('DELETE', `${API}/links/${both.id}`), 200)
    // Another user's links stay out of it.
    expect(await all('&search=b-summer&search_by=all')).toEqual([])
  })

  it('the OpenAPI document lists all among search_by’s values', async () => {
    const doc = (await t.call('GET', '/api/openapi.json', { key: null })).json() as {
      paths: Record<
        string,
        { get?: { parameters?: { name: string; schema: { enum?: string[] } }[] } }
      >
    }
    const param = doc.paths['/api/v1/links']?.get?.parameters?.find((p) => p.name === 'search_by')
    expect(param?.schema.enum).toEqual(['title', 'alias', 'url', 'all'])
  })

  it('searches URLs, with % and _ literal', async () => {
    expect(await all('&search=ONE.EXAMPLE&search_by=url')).toEqual(ids(1))
    expect(await all('&search=%25&search_by=url')).toEqual(ids(1))
    expect(await all('&search=_&search_by=url')).toEqual(ids(3, 1))
    expect(await all('&search=%25_o&search_by=url')).toEqual(ids(1))
  })

  it('finds what a change made searchable, and nothing a change or a deletion took away', async () => {
    const KEY_D = 'test-key-user-d-search-0123456789'
    await t.services.users.createUser({ email: 'd@example.com', name: 'Dora', apiKey: KEY_D })
    const find = (query: string) => listIds(t, `links?per_page=100${query}`, KEY_D)
    const a = await createLink(t, { title: 'Été "quoted" sale', alias: 'dora-one' }, KEY_D)
    const b = await createLink(t, { title: 'Another page', alias: 'dora-two' }, KEY_D)
    // Non-ASCII letters match in either case; quotes and spaces are part of the term.
    expect(await find(`&search=${encodeURIComponent('ÉTÉ')}`)).toEqual([a.id])
    expect(await find(`&search=${encodeURIComponent('"quoted" s')}`)).toEqual([a.id])
    expect(await find(`&search=${encodeURIComponent('" s')}`)).toEqual([a.id])
    expect(await find('&search=dora-&search_by=alias')).toEqual([b.id, a.id])
    // A new title is found at once and the old one no longer.
    expectStatus(
      await t.call('PATCH', `${API}/links/${b.id}`, { form: { title: 'Renamed' }, key: KEY_D }),
      200,
    )
    expect(await find('&search=another')).toEqual([])
    expect(await find('&search=renamed')).toEqual([b.id])
    expectStatus(await t.call('DELETE', `${API}/links/${a.id}`, { key: KEY_D }), 200)
    expect(await find('&search=dora-&search_by=alias')).toEqual([b.id])
  })

  it('finds nothing when nothing matches (200, empty data)', async () => {
    expect(await all('&search=no-such-thing')).toEqual([])
    expect(await all('&search=summer&search_by=alias')).toEqual([])
  })
})

describe('status', () => {
  it('lists every link with status 0 or without status', async () => {
    expect(await all()).toEqual(ids(6, 5, 4, 3, 2, 1))
    expect(await all('&status=0')).toEqual(ids(6, 5, 4, 3, 2, 1))
  })

  it('status 1 lists exactly the active links', async () => {
    expect(await all('&status=1')).toEqual(ids(5, 1))
  })

  it('status 1 lists an active link that has no expiry and no click limit', async () => {
    expect(await all('&status=1&search=alpha&search_by=alias')).toEqual(ids(1))
  })

  it('status 2 lists exactly the expired links (by date and by clicks), not disabled ones', async () => {
    expect(await all('&status=2')).toEqual(ids(4, 3))
  })

  it('status 3 lists exactly the disabled links, even one past its expiry', async () => {
    expect(await all('&status=3')).toEqual(ids(6, 2))
  })

  it('a link reaching its click limit moves from active to expired', async () => {
    const link = await createLink(t, { alias: 'limit-reached', expiration_clicks: 2 })
    await setClicks(t, link.id, 1)
    expect(await all('&status=1')).toContain(link.id)
    await setClicks(t, link.id, 2)
    expect(await all('&status=1')).not.toContain(link.id)
    expect(await all('&status=2')).toContain(link.id)
    expectStatus(await t.call('DELETE', `${API}/links/${link.id}`), 200)
  })
})

describe('space, domain and pixel filters', () => {
  it('filters by space', async () => {
    expect(await all(`&space_id=${s1.id}`)).toEqual(ids(1))
    expect(await all(`&space_id=${s2.id}`)).toEqual(ids(5))
  })

  it('space_id=0 lists the links in no space', async () => {
    expect(await all('&space_id=0')).toEqual(ids(6, 4, 3, 2))
  })

  it('filters by domain', async () => {
    expect(await all(`&domain_id=${d2.id}`)).toEqual(ids(4))
    expect(await all(`&domain_id=${t.defaultDomainId}`)).toEqual(ids(6, 5, 3, 2, 1))
  })

  it('filters by pixel', async () => {
    expect(await all(`&pixel_id=${p1.id}`)).toEqual(ids(5, 1))
    expect(await all(`&pixel_id=${p2.id}`)).toEqual(ids(5))
  })

  it('filters by a space, domain or pixel that does not exist to an empty list', async () => {
    expect(await all('&space_id=999999')).toEqual([])
    expect(await all('&domain_id=999999')).toEqual([])
    expect(await all('&pixel_id=999999')).toEqual([])
  })

  it('combines filters', async () => {
    expect(await all(`&status=2&domain_id=${d2.id}`)).toEqual(ids(4))
    expect(await all(`&status=3&pixel_id=${p1.id}`)).toEqual([])
    expect(await all('&space_id=0&status=2')).toEqual(ids(4, 3))
    expect(await all(`&search=s&search_by=alias&domain_id=${t.defaultDomainId}&status=1`)).toEqual(
      ids(5),
    )
  })
})

describe('sorting', () => {
  it('sorts by id, descending by default', async () => {
    expect(await all('&sort_by=id')).toEqual(ids(6, 5, 4, 3, 2, 1))
    expect(await all('&sort=desc')).toEqual(ids(6, 5, 4, 3, 2, 1))
    expect(await all('&sort_by=id&sort=asc')).toEqual(ids(1, 2, 3, 4, 5, 6))
  })

  it('sorts by clicks, ties broken by id', async () => {
    expect(await all('&sort_by=clicks&sort=desc')).toEqual(ids(2, 1, 4, 5, 6, 3))
    expect(await all('&sort_by=clicks&sort=asc')).toEqual(ids(3, 6, 5, 4, 1, 2))
  })

  it('sorts by title, case-insensitively', async () => {
    expect(await all('&sort_by=title&sort=asc')).toEqual(ids(4, 5, 1, 2, 3, 6))
    expect(await all('&sort_by=title&sort=desc')).toEqual(ids(6, 3, 2, 1, 5, 4))
  })

  it('sorts by alias, case-insensitively', async () => {
    expect(await all('&sort_by=alias&sort=asc')).toEqual(ids(1, 2, 4, 5, 3, 6))
    expect(await all('&sort_by=alias&sort=desc')).toEqual(ids(6, 3, 5, 4, 2, 1))
  })

  it('sorts by url', async () => {
    expect(await all('&sort_by=url&sort=asc')).toEqual(ids(5, 4, 1, 6, 3, 2))
    expect(await all('&sort_by=url&sort=desc')).toEqual(ids(2, 3, 6, 1, 4, 5))
  })

  it('breaks ties of a text sort by id', async () => {
    // Every one of C's links has the same url.
    const res = await listIds(t, 'links?per_page=100&sort_by=url&sort=asc', KEY_C)
    expect(res).toEqual([...C])
    const desc = await listIds(t, 'links?per_page=100&sort_by=url&sort=desc', KEY_C)
    expect(desc).toEqual([...C].reverse())
  })
})

describe('paging', () => {
  const page = (query: string) => t.call('GET', `${API}/links${query}`, { key: KEY_C })
  const newestFirst = () => [...C].reverse()

  it('answers the first page with links and meta exactly, keys in order', async () => {
    const res = await page('')
    expectStatus(res, 200)
    const body = res.json()
    expect(Object.keys(body)).toEqual(LIST_KEYS)
    expect(Object.keys(body.links)).toEqual(PAGE_LINK_KEYS)
    expect(Object.keys(body.meta)).toEqual(PAGE_META_KEYS)
    expect(body.data.map((r: Rec) => r.id)).toEqual(newestFirst().slice(0, 10))
    expect(body.links).toEqual({
      first: `${PATH}?page=1`,
      last: `${PATH}?page=3`,
      prev: null,
      next: `${PATH}?page=2`,
    })
    expect(body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 3,
      path: PATH,
      per_page: 10,
      to: 10,
      total: 23,
    })
    expect(body.status).toBe(200)
  })

  it('answers a middle page with prev and next', async () => {
    const res = await page('?page=2')
    expectStatus(res, 200)
    const body = res.json()
    expect(body.data.map((r: Rec) => r.id)).toEqual(newestFirst().slice(10, 20))
    expect(body.links).toEqual({
      first: `${PATH}?page=1`,
      last: `${PATH}?page=3`,
      prev: `${PATH}?page=1`,
      next: `${PATH}?page=3`,
    })
    expect(body.meta).toEqual({
      current_page: 2,
      from: 11,
      last_page: 3,
      path: PATH,
      per_page: 10,
      to: 20,
      total: 23,
    })
  })

  it('answers the last page with next null', async () => {
    const body = (await page('?page=3')).json()
    expect(body.data.map((r: Rec) => r.id)).toEqual(newestFirst().slice(20))
    expect(body.links).toEqual({
      first: `${PATH}?page=1`,
      last: `${PATH}?page=3`,
      prev: `${PATH}?page=2`,
      next: null,
    })
    expect(body.meta).toMatchObject({ current_page: 3, from: 21, to: 23, last_page: 3 })
  })

  it('answers a page past the last with 200, empty data and from/to null', async () => {
    const res = await page('?page=4')
    expectStatus(res, 200)
    expect(res.json()).toEqual({
      data: [],
      links: {
        first: `${PATH}?page=1`,
        last: `${PATH}?page=3`,
        prev: `${PATH}?page=3`,
        next: null,
      },
      meta: {
        current_page: 4,
        from: null,
        last_page: 3,
        path: PATH,
        per_page: 10,
        to: null,
        total: 23,
      },
      status: 200,
    })
  })

  it('answers an empty result with one page and from/to null', async () => {
    const res = await page('?search=nothing-here')
    expectStatus(res, 200)
    expect(res.json()).toEqual({
      data: [],
      links: {
        first: `${PATH}?search=nothing-here&page=1`,
        last: `${PATH}?search=nothing-here&page=1`,
        prev: null,
        next: null,
      },
      meta: {
        current_page: 1,
        from: null,
        last_page: 1,
        path: PATH,
        per_page: 10,
        to: null,
        total: 0,
      },
      status: 200,
    })
  })

  it('keeps every filter in the page URLs', async () => {
    const query =
      'search=link&search_by=title&status=0&space_id=0' +
      `&domain_id=${t.defaultDomainId}&sort_by=title&sort=asc&per_page=10`
    const res = await page(`?${query}&page=2`)
    expectStatus(res, 200)
    const body = res.json()
    expect(body.links).toEqual({
      first: `${PATH}?${query}&page=1`,
      last: `${PATH}?${query}&page=3`,
      prev: `${PATH}?${query}&page=1`,
      next: `${PATH}?${query}&page=3`,
    })
    expect(body.meta).toEqual({
      current_page: 2,
      from: 11,
      last_page: 3,
      path: PATH,
      per_page: 10,
      to: 20,
      total: 23,
    })
    expect(body.data.map((r: Rec) => r.id)).toEqual(C.slice(10, 20))
  })

  it('keeps a pixel filter and an encoded search in the page URLs', async () => {
    const res = await t.call('GET', `${API}/links?search=100%25&search_by=url&pixel_id=${p1.id}`)
    expectStatus(res, 200)
    expect(res.json().links.first).toBe(
      `${PATH}?search=100%25&search_by=url&pixel_id=${p1.id}&page=1`,
    )
  })

  it.each([25, 50, 100])('answers per_page=%i on one page', async (perPage) => {
    const body = (await page(`?per_page=${perPage}`)).json()
    expect(body.data).toHaveLength(23)
    expect(body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 1,
      path: PATH,
      per_page: perPage,
      to: 23,
      total: 23,
    })
    expect(body.links.next).toBeNull()
  })

  it.each(['asc', 'desc'])(
    'pages through equal sort keys without overlap or gap (sort=%s)',
    async (sort) => {
      const seen: number[] = []
      for (let n = 1; n <= 3; n++) {
        const body = (await page(`?sort_by=clicks&sort=${sort}&page=${n}`)).json()
        seen.push(...body.data.map((r: Rec) => r.id))
      }
      expect(seen).toEqual(sort === 'asc' ? [...C] : [...C].reverse())
    },
  )
})

describe('invalid parameters', () => {
  it.each([
    ['per_page=20', { per_page: ['The selected per page is invalid.'] }],
    ['per_page=0', { per_page: ['The selected per page is invalid.'] }],
    ['per_page=1000', { per_page: ['The selected per page is invalid.'] }],
    ['sort=up', { sort: ['The selected sort is invalid.'] }],
    ['sort=ASC', { sort: ['The selected sort is invalid.'] }],
    ['status=9', { status: ['The selected status is invalid.'] }],
    ['status=-1', { status: ['The selected status is invalid.'] }],
    ['page=0', { page: ['The page field must be at least 1.'] }],
    ['page=-3', { page: ['The page field must be at least 1.'] }],
    ['page=abc', { page: ['The page field must be an integer.'] }],
    ['page=1.5', { page: ['The page field must be an integer.'] }],
    ['sort_by=nope', { sort_by: ['The selected sort by is invalid.'] }],
    ['sort_by=created_at', { sort_by: ['The selected sort by is invalid.'] }],
    ['search_by=nope', { search_by: ['The selected search by is invalid.'] }],
    ['space_id=-1', { space_id: ['The space id field must be at least 0.'] }],
    ['domain_id=abc', { domain_id: ['The domain id field must be an integer.'] }],
    ['pixel_id=0', { pixel_id: ['The pixel id field must be at least 1.'] }],
  ])('answers 422 for %s', async (query, message) => {
    const res = await t.call('GET', `${API}/links?${query}`)
    expectStatus(res, 422)
    expect(res.json()).toEqual(validation(message))
  })

  it('reports every invalid list parameter at once', async () => {
    const res = await t.call(
      'GET',
      `${API}/links?per_page=20&sort=up&status=9&page=0&sort_by=nope&search_by=nope`,
    )
    expectStatus(res, 422)
    expect(res.json()).toEqual(
      validation({
        per_page: ['The selected per page is invalid.'],
        sort: ['The selected sort is invalid.'],
        status: ['The selected status is invalid.'],
        page: ['The page field must be at least 1.'],
        sort_by: ['The selected sort by is invalid.'],
        search_by: ['The selected search by is invalid.'],
      }),
    )
  })

  it.each([
    ['sort=asc&sort=desc', 'sort'],
    ['per_page=10&per_page=25', 'per_page'],
    ['status=1&status=1', 'status'],
    ['search=a&search=b', 'search'],
    ['page=1&page=2', 'page'],
  ])('answers 422 with one message for the duplicated parameter %s', async (query, field) => {
    const res = await t.call('GET', `${API}/links?${query}`)
    expectStatus(res, 422)
    expect(res.json()).toEqual(validation({ [field]: [expect.any(String)] }))
  })
})
