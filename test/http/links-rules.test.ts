/** Links: redirect rules (`rules`), sent as JSON and as bracket forms, stored and validated. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { API, expectStatus, LINK_FIELDS, show, validation } from './helpers.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const u = (s: string) => encodeURIComponent(s)

function create(rules: unknown) {
  return t.call('POST', `${API}/links`, {
    json: { url: 'https://example.com/main', domain_id: t.defaultDomainId, rules },
  })
}

function createForm(form: string) {
  return t.call('POST', `${API}/links`, {
    form: `url=${u('https://example.com/main')}&domain_id=${t.defaultDomainId}&${form}`,
  })
}

async function expect422(rules: unknown, message: Record<string, string[]>) {
  const res = await create(rules)
  expectStatus(res, 422)
  expect(res.json()).toEqual(validation(message))
}

const RULES = [
  {
    conditions: [
      { type: 'country', value: 'fr' },
      { type: 'device', value: 'Mobile' },
    ],
    url: 'https://example.com/fr-mobile',
  },
  {
    conditions: [
      { type: 'region', value: 'us-ca' },
      { type: 'platform', value: 'os x' },
      { type: 'browser', value: ' Chrome ' },
      { type: 'language', value: 'DE' },
    ],
    url: 'HTTPS://Example.COM/ca',
  },
  {
    conditions: [
      { type: 'after', value: '2026-05-01T12:00:00+02:00' },
      { type: 'before', value: '2026-06-01T00:00Z' },
      { type: 'query', key: 'ref' },
      { type: 'query', key: 'c', value: 'spring sale' },
    ],
    url: 'https://example.com/spring',
  },
]

const STORED = [
  {
    conditions: [
      { type: 'country', value: 'FR' },
      { type: 'device', value: 'mobile' },
    ],
    url: 'https://example.com/fr-mobile',
  },
  {
    conditions: [
      { type: 'region', value: 'US-CA' },
      { type: 'platform', value: 'OS X' },
      { type: 'browser', value: 'Chrome' },
      { type: 'language', value: 'de' },
    ],
    url: 'https://example.com/ca',
  },
  {
    conditions: [
      { type: 'after', value: '2026-05-01T10:00:00.000000Z' },
      { type: 'before', value: '2026-06-01T00:00:00.000000Z' },
      { type: 'query', key: 'ref' },
      { type: 'query', key: 'c', value: 'spring sale' },
    ],
    url: 'https://example.com/spring',
  },
]

describe('storing rules', () => {
  it('stores a JSON list in one spelling and shows it after the targeting fields', async () => {
    const res = await create(RULES)
    expectStatus(res, 201)
    const data = res.json().data
    expect(data.rules).toEqual(STORED)
    expect(Object.keys(data)).toEqual(LINK_FIELDS)
    expect(LINK_FIELDS.indexOf('rules')).toBe(LINK_FIELDS.indexOf('last_rotation') + 1)
    expect((await show(t, `links/${data.id}`)).rules).toEqual(STORED)
  })

  it('takes the same list as a bracket form', async () => {
    const form = RULES.flatMap((rule, i) => [
      ...rule.conditions.flatMap((c, j) =>
        Object.entries(c).map(([part, v]) => `rules[${i}][conditions][${j}][${part}]=${u(v)}`),
      ),
      `rules[${i}][url]=${u(rule.url)}`,
    ]).join('&')
    const res = await createForm(form)
    expectStatus(res, 201)
    expect(res.json().data.rules).toEqual(STORED)
  })

  it('is [] for a link without rules, and an empty value clears them', async () => {
    const plain = await create(undefined)
    expectStatus(plain, 201)
    expect(plain.json().data.rules).toEqual([])
    const id = (await create(RULES)).json().data.id as number
    const kept = await t.call('PATCH', `${API}/links/${id}`, { form: { title: 'x' } })
    expectStatus(kept, 200)
    expect(kept.json().data.rules).toEqual(STORED)
    const cleared = await t.call('PATCH', `${API}/links/${id}`, { form: 'rules=' })
    expectStatus(cleared, 200)
    expect(cleared.json().data.rules).toEqual([])
    await t.call('PATCH', `${API}/links/${id}`, { json: { rules: RULES } })
    const emptied = await t.call('PATCH', `${API}/links/${id}`, { json: { rules: [] } })
    expect(emptied.json().data.rules).toEqual([])
  })

  it('replaces the list on update', async () => {
    const id = (await create(RULES)).json().data.id as number
    const res = await t.call('PUT', `${API}/links/${id}`, {
      json: { rules: [RULES[1]] },
    })
    expectStatus(res, 200)
    expect(res.json().data.rules).toEqual([STORED[1]])
  })

  it('drops blank rules and blank conditions (a form’s empty row)', async () => {
    const res = await createForm(
      'rules[0][conditions][0][type]=&rules[0][conditions][0][value]=&rules[0][url]=' +
        `&rules[1][conditions][0][type]=device&rules[1][conditions][0][value]=tablet` +
        `&rules[1][conditions][1][type]=&rules[1][conditions][1][key]=&rules[1][conditions][1][value]=` +
        `&rules[1][url]=${u('https://example.com/tablet')}`,
    )
    expectStatus(res, 201)
    expect(res.json().data.rules).toEqual([
      { conditions: [{ type: 'device', value: 'tablet' }], url: 'https://example.com/tablet' },
    ])
  })

  it('accepts 50 rules of 10 conditions each', async () => {
    const rule = {
      conditions: Array.from({ length: 10 }, (_, j) => ({ type: 'query', key: `k${j}` })),
      url: 'https://example.com/x',
    }
    const res = await create(Array.from({ length: 50 }, () => rule))
    expectStatus(res, 201)
    expect(res.json().data.rules).toHaveLength(50)
  })
})

describe('validation names the failing part', () => {
  const ok = { type: 'device', value: 'mobile' }
  const url = 'https://example.com/r'
  it.each<[string, unknown, string]>([
    [
      'an unknown type',
      { type: 'planet', value: 'x' },
      'The selected rules.0.conditions.1.type is invalid.',
    ],
    [
      'a country not ISO',
      { type: 'country', value: 'UK' },
      'The selected rules.0.conditions.1.value is invalid.',
    ],
    [
      'a region without its country',
      { type: 'region', value: 'CA' },
      'The selected rules.0.conditions.1.value is invalid.',
    ],
    [
      'a region of no country',
      { type: 'region', value: 'ZZ-01' },
      'The selected rules.0.conditions.1.value is invalid.',
    ],
    [
      'a platform not one of seven',
      { type: 'platform', value: 'BeOS' },
      'The selected rules.0.conditions.1.value is invalid.',
    ],
    [
      'a device',
      { type: 'device', value: 'watch' },
      'The selected rules.0.conditions.1.value is invalid.',
    ],
    [
      'a language',
      { type: 'language', value: 'deu' },
      'The selected rules.0.conditions.1.value is invalid.',
    ],
    [
      'an instant without a zone',
      { type: 'before', value: '2026-05-01T10:00:00' },
      'The rules.0.conditions.1.value field must be an ISO 8601 instant, such as 2026-05-01T10:00:00Z.',
    ],
    [
      'a date that does not exist',
      { type: 'after', value: '2026-02-30T10:00:00Z' },
      'The rules.0.conditions.1.value field must be an ISO 8601 instant, such as 2026-05-01T10:00:00Z.',
    ],
    [
      'a value too long',
      { type: 'browser', value: 'x'.repeat(256) },
      'The rules.0.conditions.1.value field must not be greater than 255 characters.',
    ],
  ])('%s', async (_, condition, message) => {
    const field = message.match(/rules\.0\.conditions\.1\.\w+/)![0]
    await expect422([{ conditions: [ok, condition], url }], { [field]: [message] })
  })

  it('a query condition needs its key; other types take no key and need a value', async () => {
    await expect422(
      [
        {
          conditions: [
            { type: 'query', value: 'x' },
            { type: 'country', key: 'x', value: 'FR' },
            { type: 'browser' },
            { value: 'FR' },
          ],
          url,
        },
      ],
      {
        'rules.0.conditions.0.key': ['The rules.0.conditions.0.key field is required.'],
        'rules.0.conditions.1.key': [
          'The rules.0.conditions.1.key field is only taken by query conditions.',
        ],
        'rules.0.conditions.2.value': ['The rules.0.conditions.2.value field is required.'],
        'rules.0.conditions.3.type': ['The rules.0.conditions.3.type field is required.'],
      },
    )
  })

  it('a rule needs a URL and at least one condition; every failing rule is reported', async () => {
    await expect422(
      [
        { conditions: [ok] },
        { conditions: [], url },
        { url },
        { conditions: [ok], url: 'javascript:alert(1)' },
        { conditions: [ok], url: 'ftp://example.com/' },
      ],
      {
        'rules.0.url': ['The rules.0.url field is required.'],
        'rules.1.conditions': ['The rules.1.conditions field must have at least 1 items.'],
        'rules.2.conditions': ['The rules.2.conditions field must have at least 1 items.'],
        'rules.3.url': ['The rules.3.url field must be a valid URL.'],
        'rules.4.url': ['The rules.4.url field must be a valid URL.'],
      },
    )
  })

  it('at most 50 rules, 10 conditions a rule', async () => {
    const rule = { conditions: [ok], url }
    await expect422(
      Array.from({ length: 51 }, () => rule),
      {
        rules: ['The rules field must not have more than 50 items.'],
      },
    )
    await expect422([rule, { conditions: Array.from({ length: 11 }, () => ok), url }], {
      'rules.1.conditions': ['The rules.1.conditions field must not have more than 10 items.'],
    })
  })

  it('a list of something else is refused, never a 5xx', async () => {
    // A scalar sent for a list is a one-item list (as `pixel_ids=3` is).
    await expect422('x', { 'rules.0': ['The rules.0 field must be an array.'] })
    await expect422({ a: 1 }, { rules: ['The rules field must be an array.'] })
    await expect422([5], { 'rules.0': ['The rules.0 field must be an array.'] })
    await expect422([{ conditions: 'x', url }], {
      'rules.0.conditions.0': ['The rules.0.conditions.0 field must be an array.'],
    })
    await expect422([{ conditions: [ok], url: ['https://example.com/'] }], {
      'rules.0.url': ['The rules.0.url field must be a string.'],
    })
  })

  it('reports the rules with the other fields, and stores nothing', async () => {
    const res = await t.call('POST', `${API}/links`, {
      json: {
        url: 'nope',
        domain_id: t.defaultDomainId,
        alias: 'rules-refused',
        rules: [{ conditions: [{ type: 'country', value: 'XX' }], url }],
      },
    })
    expectStatus(res, 422)
    expect(res.json()).toEqual(
      validation({
        url: ['The url field must be a valid URL.'],
        'rules.0.conditions.0.value': ['The selected rules.0.conditions.0.value is invalid.'],
      }),
    )
    const listed = await t.call('GET', `${API}/links?search=rules-refused&search_by=alias`)
    expect(listed.json().meta.total).toBe(0)
  })
})
