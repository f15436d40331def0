/** Links: target_type and the four targeting lists (country, platform, language, rotation). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { API, createLink, expectStatus, show, validation } from './helpers.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const u = (s: string) => encodeURIComponent(s)

function post(form: string) {
  return t.call('POST', `${API}/links`, {
    form: `url=${u('https://example.com/main')}&domain_id=${t.defaultDomainId}&${form}`,
  })
}

function keyed(list: string, entries: [string, string][], from = 0): string {
  return entries
    .map(
      ([key, value], i) =>
        `${list}[${i + from}][key]=${u(key)}&${list}[${i + from}][value]=${u(value)}`,
    )
    .join('&')
}

async function expect422(
  res: Awaited<ReturnType<typeof post>>,
  message: Record<string, unknown[]>,
) {
  expectStatus(res, 422)
  expect(res.json()).toEqual(validation(message))
}

describe('target_type', () => {
  it.each([0, 1, 2, 3, 4])('accepts target_type %i', async (type) => {
    const res = await post(`target_type=${type}`)
    expectStatus(res, 201)
    expect(res.json().data.target_type).toBe(type)
  })

  it.each(['5', '-1', '1.5'])('rejects target_type=%s', async (value) => {
    const message =
      value === '1.5'
        ? 'The target type field must be an integer.'
        : 'The selected target type is invalid.'
    await expect422(await post(`target_type=${value}`), { target_type: [message] })
  })

  it('stores every list whatever the type (the type picks the active one)', async () => {
    const res = await post(
      `target_type=2&${keyed('country', [['US', 'https://us.example/']])}` +
        `&${keyed('platform', [['Android', 'https://android.example/']])}` +
        `&${keyed('language', [['fr', 'https://fr.example/']])}` +
        `&rotation[0][value]=${u('https://rot.example/')}`,
    )
    expectStatus(res, 201)
    expect(res.json().data).toMatchObject({
      target_type: 2,
      country_target: [{ key: 'US', value: 'https://us.example/' }],
      platform_target: [{ key: 'Android', value: 'https://android.example/' }],
      language_target: [{ key: 'fr', value: 'https://fr.example/' }],
      rotation_target: [{ value: 'https://rot.example/' }],
    })
  })
})

describe('keys', () => {
  it.each(['US', 'DE', 'GB', 'XK', 'JP'])('accepts the country key %s', async (key) => {
    const res = await post(keyed('country', [[key, 'https://c.example/']]))
    expectStatus(res, 201)
    expect(res.json().data.country_target).toEqual([{ key, value: 'https://c.example/' }])
  })

  it.each(['us', 'ZZ', 'USA', 'U', 'EU', 'UK'])('rejects the country key %j', async (key) => {
    await expect422(await post(keyed('country', [[key, 'https://c.example/']])), {
      'country.0.key': ['The selected country.0.key is invalid.'],
    })
  })

  it.each(['iOS', 'Android', 'Windows', 'OS X', 'Linux', 'Ubuntu', 'Chrome OS'])(
    'accepts the platform key %j',
    async (key) => {
      const res = await post(keyed('platform', [[key, 'https://p.example/']]))
      expectStatus(res, 201)
      expect(res.json().data.platform_target).toEqual([{ key, value: 'https://p.example/' }])
    },
  )

  it.each(['ios', 'macOS', 'OSX', 'ChromeOS', 'BlackBerry'])(
    'rejects the platform key %j',
    async (key) => {
      await expect422(await post(keyed('platform', [[key, 'https://p.example/']])), {
        'platform.0.key': ['The selected platform.0.key is invalid.'],
      })
    },
  )

  it.each(['en', 'de', 'zh', 'pt'])('accepts the language key %s', async (key) => {
    const res = await post(keyed('language', [[key, 'https://l.example/']]))
    expectStatus(res, 201)
    expect(res.json().data.language_target).toEqual([{ key, value: 'https://l.example/' }])
  })

  it.each(['EN', 'eng', 'en-US', 'xx', 'e'])('rejects the language key %j', async (key) => {
    await expect422(await post(keyed('language', [[key, 'https://l.example/']])), {
      'language.0.key': ['The selected language.0.key is invalid.'],
    })
  })
})

describe('values', () => {
  it.each([
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    'ftp://example.com/',
    'not a url',
  ])('rejects %j as a targeting value in every list', async (bad) => {
    const res = await post(
      `${keyed('country', [['US', bad]])}&${keyed('platform', [['iOS', bad]])}` +
        `&${keyed('language', [['en', bad]])}&rotation[0][value]=${u(bad)}`,
    )
    await expect422(res, {
      'country.0.value': ['The country.0.value field must be a valid URL.'],
      'platform.0.value': ['The platform.0.value field must be a valid URL.'],
      'language.0.value': ['The language.0.value field must be a valid URL.'],
      'rotation.0.value': ['The rotation.0.value field must be a valid URL.'],
    })
  })

  it('rejects a targeting value longer than 2048 characters', async () => {
    const long = `https://example.com/${'a'.repeat(2030)}`
    await expect422(await post(keyed('country', [['US', long]])), {
      'country.0.value': ['The country.0.value field must not be greater than 2048 characters.'],
    })
  })
})

describe('list rules', () => {
  it('accepts exactly 100 entries in a list', async () => {
    const rotation = Array.from(
      { length: 100 },
      (_, i) => `rotation[${i}][value]=${u(`https://r${i}.example/`)}`,
    ).join('&')
    const res = await post(rotation)
    expectStatus(res, 201)
    expect(res.json().data.rotation_target).toHaveLength(100)
  })

  it.each(['country', 'language', 'rotation'])('rejects 101 entries in %s', async (list) => {
    const keys = list === 'country' ? ['US', 'DE', 'FR'] : ['en', 'de', 'fr']
    const entries = Array.from({ length: 101 }, (_, i) =>
      list === 'rotation'
        ? `rotation[${i}][value]=${u(`https://r${i}.example/`)}`
        : `${list}[${i}][key]=${keys[i % 3]}&${list}[${i}][value]=${u(`https://r${i}.example/`)}`,
    ).join('&')
    await expect422(await post(entries), {
      [list]: [`The ${list} field must not have more than 100 items.`],
    })
  })

  it('rejects 101 platform entries', async () => {
    const entries = Array.from(
      { length: 101 },
      (_, i) => `platform[${i}][key]=iOS&platform[${i}][value]=${u(`https://p${i}.example/`)}`,
    ).join('&')
    await expect422(await post(entries), {
      platform: ['The platform field must not have more than 100 items.'],
    })
  })

  it('rejects a key repeated in a list, naming the repeat', async () => {
    const res = await post(
      keyed('country', [
        ['US', 'https://a.example/'],
        ['DE', 'https://b.example/'],
        ['US', 'https://c.example/'],
      ]) +
        '&' +
        keyed('platform', [
          ['iOS', 'https://a.example/'],
          ['iOS', 'https://b.example/'],
        ]) +
        '&' +
        keyed('language', [
          ['en', 'https://a.example/'],
          ['en', 'https://b.example/'],
        ]),
    )
    await expect422(res, {
      'country.2.key': ['The country.2.key field has a duplicate value.'],
      'platform.1.key': ['The platform.1.key field has a duplicate value.'],
      'language.1.key': ['The language.1.key field has a duplicate value.'],
    })
  })

  it('rejects half an entry: a key without a value, or a value without a key', async () => {
    const res = await post(
      `country[0][key]=US&country[1][value]=${u('https://b.example/')}` +
        `&platform[0][key]=iOS&platform[0][value]=` +
        `&language[0][key]=&language[0][value]=${u('https://l.example/')}`,
    )
    await expect422(res, {
      'country.0.value': ['The country.0.value field is required.'],
      'country.1.key': ['The country.1.key field is required.'],
      'platform.0.value': ['The platform.0.value field is required.'],
      'language.0.key': ['The language.0.key field is required.'],
    })
  })

  it('reports a half entry and an invalid key of the same list together', async () => {
    const res = await post(
      `country[0][key]=ZZ&country[0][value]=${u('https://a.example/')}&country[1][key]=US`,
    )
    await expect422(res, {
      'country.0.key': ['The selected country.0.key is invalid.'],
      'country.1.value': ['The country.1.value field is required.'],
    })
  })

  it('drops entries with both parts empty, and keeps the others in order', async () => {
    const res = await post(
      `country[0][key]=&country[0][value]=` +
        `&country[1][key]=DE&country[1][value]=${u('https://de.example/')}` +
        `&country[2][key]=&country[2][value]=` +
        `&country[3][key]=AT&country[3][value]=${u('https://at.example/')}` +
        `&rotation[0][value]=&rotation[1][value]=${u('https://r.example/')}`,
    )
    expectStatus(res, 201)
    expect(res.json().data).toMatchObject({
      country_target: [
        { key: 'DE', value: 'https://de.example/' },
        { key: 'AT', value: 'https://at.example/' },
      ],
      rotation_target: [{ value: 'https://r.example/' }],
    })
  })

  it('stores a list whose every entry is empty as null', async () => {
    const res = await post(
      'country[0][key]=&country[0][value]=&platform[0][key]=&platform[0][value]=' +
        '&language[0][key]=&language[0][value]=&rotation[0][value]=',
    )
    expectStatus(res, 201)
    expect(res.json().data).toMatchObject({
      country_target: null,
      platform_target: null,
      language_target: null,
      rotation_target: null,
    })
  })

  it('accepts the lists as JSON arrays of objects', async () => {
    const res = await t.call('POST', `${API}/links`, {
      json: {
        url: 'https://example.com/json',
        domain_id: t.defaultDomainId,
        target_type: 3,
        language: [
          { key: 'de', value: 'https://de.example/' },
          { key: '', value: '' },
          { key: 'fr', value: 'https://fr.example/' },
        ],
        rotation: [{ value: 'https://r.example/' }],
      },
    })
    expectStatus(res, 201)
    expect(res.json().data).toMatchObject({
      target_type: 3,
      language_target: [
        { key: 'de', value: 'https://de.example/' },
        { key: 'fr', value: 'https://fr.example/' },
      ],
      rotation_target: [{ value: 'https://r.example/' }],
    })
  })
})

describe('on update', () => {
  const full =
    `target_type=1&${keyed('country', [
      ['US', 'https://us.example/'],
      ['CA', 'https://ca.example/'],
    ])}` +
    `&${keyed('platform', [['iOS', 'https://ios.example/']])}` +
    `&${keyed('language', [['es', 'https://es.example/']])}` +
    `&rotation[0][value]=${u('https://r1.example/')}`

  async function linkWithLists() {
    return createLink(t, `url=${u('https://example.com/u')}&domain_id=${t.defaultDomainId}&${full}`)
  }

  it('replaces a list that is sent and leaves the others alone', async () => {
    const link = await linkWithLists()
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      form: keyed('country', [['MX', 'https://mx.example/']]),
    })
    expectStatus(res, 200)
    expect(res.json().data).toMatchObject({
      target_type: 1,
      country_target: [{ key: 'MX', value: 'https://mx.example/' }],
      platform_target: link.platform_target,
      language_target: link.language_target,
      rotation_target: link.rotation_target,
    })
  })

  it.each(['country=', 'country[]=', 'country[0][key]=&country[0][value]='])(
    'clears a list with an empty value (%s)',
    async (form) => {
      const link = await linkWithLists()
      const res = await t.call('PUT', `${API}/links/${link.id}`, { form })
      expectStatus(res, 200)
      expect(res.json().data).toMatchObject({
        country_target: null,
        platform_target: link.platform_target,
      })
    },
  )

  it('clears every list with JSON null and an empty JSON array', async () => {
    const link = await linkWithLists()
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      json: { country: null, platform: [], language: null, rotation: [] },
    })
    expectStatus(res, 200)
    expect(res.json().data).toMatchObject({
      target_type: 1,
      country_target: null,
      platform_target: null,
      language_target: null,
      rotation_target: null,
    })
  })

  it('changes target_type alone without touching the lists', async () => {
    const link = await linkWithLists()
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: 'target_type=4' })
    expectStatus(res, 200)
    expect(res.json().data).toMatchObject({
      target_type: 4,
      country_target: link.country_target,
      rotation_target: link.rotation_target,
    })
  })

  it('keeps the stored lists when an update is refused for a duplicate key', async () => {
    const link = await linkWithLists()
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      form: keyed('country', [
        ['FR', 'https://fr.example/'],
        ['FR', 'https://fr2.example/'],
      ]),
    })
    await expect422(res, { 'country.1.key': ['The country.1.key field has a duplicate value.'] })
    expect(await show(t, `links/${link.id}`)).toEqual(link)
  })
})
