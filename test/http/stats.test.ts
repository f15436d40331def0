import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { click, clicks, writeClicks } from '../support/clicks.js'
import {
  API,
  BASE,
  createLink,
  expectStatus,
  jsonContentType,
  NOT_FOUND,
  UNAUTHENTICATED,
  validation,
} from './helpers.js'

/** "Today" for these tests: the default period is 2026-03-12 to 2026-04-10. */
const NOW = Date.parse('2026-04-10T12:00:00Z')
const PERIOD = 'from=2026-02-27&to=2026-04-02'

let t: TestApp
let link: number
let manyReferrers: number

beforeAll(async () => {
  t = await createTestApp({}, { now: () => NOW })
  link = (await createLink(t, { alias: 'tracked' })).id
  manyReferrers = (await createLink(t, { alias: 'popular' })).id
  // 13 clicks from 2026-02-27 to 2026-04-02: across two month ends, March whole in between.
  await writeClicks(t.services.db, [
    ...clicks(3, link, '2026-02-27T10:15:00Z', { referrer: 'news.example.org' }),
    click(link, '2026-02-28T23:59:59Z', {
      country: 'US',
      platform: 'OS X',
      browser: 'Safari',
      language: 'en',
    }),
    ...clicks(2, link, '2026-03-01T00:00:00Z', {
      country: null,
      platform: null,
      browser: null,
      device: 'mobile',
      language: null,
      referrer: 't.co',
    }),
    ...clicks(4, link, '2026-03-15T13:30:00Z', {
      country: 'FR',
      platform: 'Android',
      device: 'mobile',
      language: 'fr',
      referrer: 'news.example.org',
    }),
    ...clicks(2, link, '2026-03-31T13:45:00Z', {
      country: 'US',
      platform: 'iOS',
      browser: 'Safari',
      device: 'tablet',
      language: 'en',
      referrer: 'www.google.com',
    }),
    click(link, '2026-04-02T08:00:00Z', {
      platform: 'Linux',
      browser: 'Firefox',
      referrer: 'www.google.com',
    }),
  ])
  // 78 clicks from twelve referrer hosts (12 to 1 clicks), for paging.
  await writeClicks(
    t.services.db,
    Array.from({ length: 12 }, (_, i) =>
      clicks(12 - i, manyReferrers, '2026-04-05T09:00:00Z', {
        referrer: `host-${String(i + 1).padStart(2, '0')}.example`,
      }),
    ).flat(),
  )
})
afterAll(() => t.close())

const get = (query: string, key?: string | null) =>
  t.call('GET', `${API}/stats/${query}`, key === undefined ? {} : { key })

async function rows(id: number, query: string) {
  const res = await get(`${id}?${query}`)
  expectStatus(res, 200)
  return (res.json() as { data: { value: string | null; count: number }[] }).data
}

const pairs = (list: [string | null, number][]) => list.map(([value, count]) => ({ value, count }))

describe('GET /api/v1/stats/{id}: the rows of each name', () => {
  it('lists clicks per UTC day with clicks, in the list envelope, most clicks first, ties by day', async () => {
    const res = await get(`${link}?name=clicks&${PERIOD}`)
    expectStatus(res, 200)
    jsonContentType(res)
    const url = (page: number) => `${BASE}${API}/stats/${link}?name=clicks&${PERIOD}&page=${page}`
    expect(res.json()).toEqual({
      data: pairs([
        ['2026-03-15', 4],
        ['2026-02-27', 3],
        ['2026-03-01', 2],
        ['2026-03-31', 2],
        ['2026-02-28', 1],
        ['2026-04-02', 1],
      ]),
      links: { first: url(1), last: url(1), prev: null, next: null },
      meta: {
        current_page: 1,
        from: 1,
        last_page: 1,
        path: `${BASE}${API}/stats/${link}`,
        per_page: 10,
        to: 6,
        total: 6,
      },
      status: 200,
    })
  })

  it.each([
    [
      'clicks_hour',
      [
        ['13', 6],
        ['10', 3],
        ['00', 2],
        ['08', 1],
        ['23', 1],
      ],
    ],
    [
      'country',
      [
        ['DE', 4],
        ['FR', 4],
        ['US', 3],
        [null, 2],
      ],
    ],
    [
      'platform',
      [
        ['Android', 4],
        ['Windows', 3],
        [null, 2],
        ['iOS', 2],
        ['Linux', 1],
        ['OS X', 1],
      ],
    ],
    [
      'browser',
      [
        ['Chrome', 7],
        ['Safari', 3],
        [null, 2],
        ['Firefox', 1],
      ],
    ],
    [
      'device',
      [
        ['mobile', 6],
        ['desktop', 5],
        ['tablet', 2],
      ],
    ],
    [
      'language',
      [
        ['de', 4],
        ['fr', 4],
        ['en', 3],
        [null, 2],
      ],
    ],
    [
      'referrer',
      [
        ['news.example.org', 7],
        ['www.google.com', 3],
        ['t.co', 2],
        [null, 1],
      ],
    ],
  ] as [string, [string | null, number][]][])(
    '%s: values with their clicks, unknown as null, ties by value (unknown first)',
    async (name, expected) => {
      expect(await rows(link, `name=${name}&${PERIOD}`)).toEqual(pairs(expected))
    },
  )

  it('adds up to the clicks of the period for every name, whatever the period', async () => {
    const periods: [string, number][] = [
      [PERIOD, 13],
      ['from=2026-02-28&to=2026-03-31', 9],
      ['from=2026-03-01&to=2026-03-31', 8],
      ['from=2026-03-02&to=2026-04-01', 6],
      ['from=2026-02-01&to=2026-02-28', 4],
      ['from=2026-03-15&to=2026-03-15', 4],
      ['from=2026-04-03&to=2026-04-04', 0],
    ]
    for (const [period, total] of periods) {
      for (const name of [
        'clicks',
        'clicks_hour',
        'country',
        'platform',
        'browser',
        'device',
        'language',
        'referrer',
      ]) {
        const sum = (await rows(link, `name=${name}&${period}&per_page=100`)).reduce(
          (a, r) => a + r.count,
          0,
        )
        expect(sum, `${name} ${period}`).toBe(total)
      }
    }
  })

  it('sorts by value with sort_by=value, in either direction (unknown first when ascending)', async () => {
    expect(await rows(link, `name=country&${PERIOD}&sort_by=value&sort=asc`)).toEqual(
      pairs([
        [null, 2],
        ['DE', 4],
        ['FR', 4],
        ['US', 3],
      ]),
    )
    expect(await rows(link, `name=country&${PERIOD}&sort_by=value`)).toEqual(
      pairs([
        ['US', 3],
        ['FR', 4],
        ['DE', 4],
        [null, 2],
      ]),
    )
    expect(await rows(link, `name=clicks&${PERIOD}&sort_by=value&sort=asc`)).toEqual(
      pairs([
        ['2026-02-27', 3],
        ['2026-02-28', 1],
        ['2026-03-01', 2],
        ['2026-03-15', 4],
        ['2026-03-31', 2],
        ['2026-04-02', 1],
      ]),
    )
    expect(await rows(link, `name=device&${PERIOD}&sort=asc`)).toEqual(
      pairs([
        ['tablet', 2],
        ['desktop', 5],
        ['mobile', 6],
      ]),
    )
  })

  it('defaults to the 30 days ending today (UTC); one date given moves only that end', async () => {
    const sum = async (query: string) =>
      (await rows(link, `name=clicks&per_page=100${query}`)).reduce((a, r) => a + r.count, 0)
    expect(await sum('')).toBe(7) // 2026-03-12 to 2026-04-10
    expect(await sum('&from=2026-02-28')).toBe(10) // to today
    expect(await sum('&to=2026-03-01')).toBe(6) // from 2026-01-31
    expect(await sum('&from=&to=')).toBe(7) // empty parameters count as absent
  })

  it('answers a period without clicks with an empty list', async () => {
    const res = await get(`${link}?name=country&from=2025-01-01&to=2025-01-31`)
    expectStatus(res, 200)
    expect(res.json()).toMatchObject({
      data: [],
      meta: { current_page: 1, from: null, last_page: 1, to: null, total: 0 },
    })
  })
})

describe('GET /api/v1/stats/{id}: paging', () => {
  const query = 'name=referrer&from=2026-04-01&to=2026-04-10&per_page=10'
  const url = (page: number) =>
    `${BASE}${API}/stats/${manyReferrers}?name=referrer&from=2026-04-01&to=2026-04-10&per_page=10&page=${page}`

  it('pages like every list, page URLs keeping every parameter', async () => {
    const first = (await get(`${manyReferrers}?${query}`)).json()
    expect(first.data).toHaveLength(10)
    expect(first.data[0]).toEqual({ value: 'host-01.example', count: 12 })
    expect(first.links).toEqual({ first: url(1), last: url(2), prev: null, next: url(2) })
    const second = await get(`${manyReferrers}?${query}&page=2`)
    expect(second.json()).toEqual({
      data: pairs([
        ['host-11.example', 2],
        ['host-12.example', 1],
      ]),
      links: { first: url(1), last: url(2), prev: url(1), next: null },
      meta: {
        current_page: 2,
        from: 11,
        last_page: 2,
        path: `${BASE}${API}/stats/${manyReferrers}`,
        per_page: 10,
        to: 12,
        total: 12,
      },
      status: 200,
    })
  })

  it('answers a page past the last with 200, empty data and the right total', async () => {
    const res = await get(`${manyReferrers}?${query}&page=3`)
    expectStatus(res, 200)
    expect(res.json()).toMatchObject({
      data: [],
      links: { prev: url(2), next: null },
      meta: { current_page: 3, from: null, to: null, total: 12, last_page: 2 },
    })
  })

  it('never repeats or skips a row across pages, even when counts tie', async () => {
    await writeClicks(
      t.services.db,
      ['b', 'a', 'd', 'c', 'f', 'e', 'h', 'g', 'j', 'i', 'k'].map((h) =>
        click(manyReferrers, '2026-04-08T09:00:00Z', { referrer: `${h}.tie.example` }),
      ),
    )
    const q = 'name=referrer&from=2026-04-08&to=2026-04-08&per_page=10'
    const all = [...(await rows(manyReferrers, q)), ...(await rows(manyReferrers, `${q}&page=2`))]
    expect(all.map((r) => r.value)).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'].map((h) => `${h}.tie.example`),
    )
  })
})

describe('GET /api/v1/stats/{id}?format=csv', () => {
  it('answers the same rows as CSV, with a filename, the page links and the total', async () => {
    const res = await get(`${link}?name=referrer&${PERIOD}&format=csv`)
    expectStatus(res, 200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="stats-${link}-referrer-2026-02-27-2026-04-02.csv"`,
    )
    const url = `${BASE}${API}/stats/${link}?name=referrer&${PERIOD}&format=csv&page=1`
    expect(res.headers.link).toBe(`<${url}>; rel="first", <${url}>; rel="last"`)
    expect(res.headers['x-total-count']).toBe('4')
    expect(res.body).toBe(
      'value,count\r\nnews.example.org,7\r\nwww.google.com,3\r\nt.co,2\r\n,1\r\n',
    )
  })

  it('pages like the JSON list', async () => {
    const q = 'name=referrer&from=2026-04-01&to=2026-04-07&format=csv&page=2'
    const res = await get(`${manyReferrers}?${q}`)
    expect(res.body).toBe('value,count\r\nhost-11.example,2\r\nhost-12.example,1\r\n')
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="stats-${manyReferrers}-referrer-2026-04-01-2026-04-07-page-2.csv"`,
    )
    expect(res.headers.link).toContain('rel="prev"')
  })

  it('quotes commas, quotes and line breaks, and defuses spreadsheet formulas', async () => {
    const odd = (await createLink(t, { alias: 'odd' })).id
    const hosts = [
      'a,b.example',
      'say "hi".example',
      '=HYPERLINK("x")',
      '-2+3',
      '@sum',
      '+1',
      'x\ny',
    ]
    await writeClicks(
      t.services.db,
      hosts.map((referrer) => click(odd, '2026-04-09T09:00:00Z', { referrer })),
    )
    const res = await get(
      `${odd}?name=referrer&from=2026-04-09&to=2026-04-09&sort_by=value&sort=asc&format=csv`,
    )
    expect(res.body).toBe(
      [
        'value,count',
        `'+1,1`,
        `'-2+3,1`,
        `"'=HYPERLINK(""x"")",1`,
        `'@sum,1`,
        '"a,b.example",1',
        '"say ""hi"".example",1',
        '"x\ny",1',
        '',
      ].join('\r\n'),
    )
  })

  it('answers errors as JSON, as every API error', async () => {
    const res = await get(`${link}?name=nope&format=csv`)
    expectStatus(res, 422)
    jsonContentType(res)
  })
})

describe('GET /api/v1/stats/{id}: who may ask', () => {
  it("answers another user's link exactly like a missing one, before checking anything else", async () => {
    for (const query of [`${link}?name=clicks`, `${link}?name=nope&from=x`, '999999?name=clicks']) {
      const res = await get(query, query.startsWith('999') ? undefined : KEY_B)
      expectStatus(res, 404)
      expect(res.json()).toEqual(NOT_FOUND)
    }
  })

  it('answers a non-numeric or oversized id with 404', async () => {
    for (const id of ['abc', '1.5', '-1', '0x1', '9'.repeat(20)]) {
      const res = await get(`${id}?name=clicks`)
      expectStatus(res, 404)
      expect(res.json()).toEqual(NOT_FOUND)
    }
  })

  it('needs the key', async () => {
    const res = await get(`${link}?name=clicks`, null)
    expectStatus(res, 401)
    expect(res.headers['www-authenticate']).toBe('Bearer')
    expect(res.json()).toEqual(UNAUTHENTICATED)
  })
})

describe('GET /api/v1/stats/{id}: bad input is a 422 naming every bad parameter', () => {
  const expect422 = async (query: string, message: Record<string, string[]>) => {
    const res = await get(`${link}?${query}`)
    expectStatus(res, 422)
    jsonContentType(res)
    expect(res.json(), query).toEqual(validation(message))
  }

  it('needs a known name', async () => {
    await expect422('', { name: ['The name field is required.'] })
    await expect422('name=', { name: ['The name field is required.'] })
    for (const name of ['visitors', 'total', 'town', 'Clicks', 'clicks ', '__proto__'])
      await expect422(`name=${encodeURIComponent(name)}`, {
        name: ['The selected name is invalid.'],
      })
  })

  it.each([
    ['2026-4-01', 'The from field must match the format Y-m-d.'],
    ['2026-02-30', 'The from field must match the format Y-m-d.'],
    ['2026-13-01', 'The from field must match the format Y-m-d.'],
    ['20260401', 'The from field must match the format Y-m-d.'],
    ['2026-04-01T00:00:00Z', 'The from field must match the format Y-m-d.'],
    ['yesterday', 'The from field must match the format Y-m-d.'],
    ['1999-12-31', 'The from field must be a date after or equal to 2000-01-01.'],
    ['2100-01-01', 'The from field must be a date before or equal to 2099-12-31.'],
  ])('refuses from=%s', async (from, message) => {
    await expect422(`name=clicks&from=${encodeURIComponent(from)}&to=2026-04-01`, {
      from: [message],
    })
  })

  it('refuses a reversed period and one longer than 366 days, and takes exactly 366', async () => {
    await expect422('name=clicks&from=2026-04-02&to=2026-04-01', {
      from: ['The from field must be a date before or equal to to.'],
    })
    await expect422('name=clicks&from=2026-04-11', {
      from: ['The from field must be a date before or equal to to.'],
    })
    const tooLong = [
      'The from field must not be more than 365 days before to (a period is at most 366 days).',
    ]
    await expect422('name=clicks&from=2023-01-01&to=2024-01-02', { from: tooLong })
    await expect422('name=clicks&from=2000-01-01&to=2099-12-31', { from: tooLong })
    await expect422('name=clicks&from=2025-04-09', { from: tooLong })
    expectStatus(await get(`${link}?name=clicks&from=2025-04-10`), 200)
    expectStatus(await get(`${link}?name=clicks&from=2024-01-01&to=2024-12-31`), 200)
  })

  it('refuses bad list parameters instead of falling back to defaults', async () => {
    await expect422('name=clicks&per_page=20&sort_by=clicks&sort=up&page=0&format=xml', {
      per_page: ['The selected per page is invalid.'],
      sort_by: ['The selected sort by is invalid.'],
      sort: ['The selected sort is invalid.'],
      page: ['The page field must be at least 1.'],
      format: ['The selected format is invalid.'],
    })
    await expect422('name=clicks&page=1000001', {
      page: ['The page field must not be greater than 1000000.'],
    })
    await expect422('name=clicks&page=two', { page: ['The page field must be an integer.'] })
  })

  it('reports every bad parameter at once', async () => {
    await expect422('name=nope&from=2026-02-30&to=1999-01-01&per_page=7', {
      name: ['The selected name is invalid.'],
      from: ['The from field must match the format Y-m-d.'],
      per_page: ['The selected per page is invalid.'],
      to: ['The to field must be a date after or equal to 2000-01-01.'],
    })
  })

  it.each([
    ['a repeated name', 'name=clicks&name=country', { name: ['The name field must be a string.'] }],
    [
      'a repeated date',
      'name=clicks&from=2026-04-01&from=2026-04-02',
      {
        from: ['The from field must be a string.'],
      },
    ],
    [
      'bracketed names (a list)',
      'name[]=clicks&name[0]=country',
      { name: ['The name field must be a string.'] },
    ],
    [
      'markup',
      'name=<script>alert(1)</script>&to=<b>',
      {
        name: ['The selected name is invalid.'],
        to: ['The to field must match the format Y-m-d.'],
      },
    ],
    [
      'SQL',
      `name=clicks&from=${encodeURIComponent("2026-04-01' OR '1'='1")}`,
      {
        from: ['The from field must match the format Y-m-d.'],
      },
    ],
    ['a NUL byte', 'name=clicks%00', { name: ['The selected name is invalid.'] }],
    [
      'a huge value',
      `name=clicks&to=${'9'.repeat(5000)}`,
      {
        to: ['The to field must match the format Y-m-d.'],
      },
    ],
  ])('answers hostile query strings (%s) with the same shape', async (_label, query, message) => {
    await expect422(query, message)
  })

  it('ignores parameters it does not know, prototype names included', async () => {
    const res = await get(`${link}?name=device&${PERIOD}&__proto__[x]=1&constructor=1&search=a`)
    expectStatus(res, 200)
    expect(res.json().meta.total).toBe(3)
  })
})

describe('GET /api/v1/stats/{id}: other methods', () => {
  it('answers 405 with Allow', async () => {
    const res = await t.call('POST', `${API}/stats/${link}?name=clicks`, {
      form: { name: 'clicks' },
    })
    expectStatus(res, 405)
    expect(res.headers.allow).toBe('GET, HEAD')
    expect(res.json()).toEqual({ message: 'Method Not Allowed.', status: 405 })
  })
})
