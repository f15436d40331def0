/** Links: every field rule of contract §3 (targeting lists are in links-targeting.test.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY_B, createTestApp, type TestApp } from '../support/app.js'
import {
  API,
  BASE,
  RANDOM_ALIAS,
  countRows,
  createDomain,
  createLink,
  createPixel,
  createSpace,
  expectStatus,
  listIds,
  validation,
  type Rec,
} from './helpers.js'

const KEY_PARIS = 'test-key-user-paris-0123456789'

let t: TestApp
let ownSpace: Rec
let bSpace: Rec
let ownPixel: Rec
let bPixel: Rec
let ownDomain: Rec
let bDomain: Rec

beforeAll(async () => {
  t = await createTestApp()
  await t.services.users.createUser({
    email: 'paris@example.com',
    name: 'Paris',
    timezone: 'Europe/Paris',
    apiKey: KEY_PARIS,
  })
  ownSpace = await createSpace(t, { name: 'Mine' })
  bSpace = await createSpace(t, { name: 'Theirs' }, KEY_B)
  ownPixel = await createPixel(t, { name: 'Mine' })
  bPixel = await createPixel(t, { name: 'Theirs' }, KEY_B)
  ownDomain = await createDomain(t, { name: 'a.validation.example' })
  bDomain = await createDomain(t, { name: 'b.validation.example' }, KEY_B)
})
afterAll(() => t.close())

/** POSTs a link with the default url and domain plus `form`; returns the response. */
function post(form: Record<string, string | number> | string, key?: string) {
  const body =
    typeof form === 'string'
      ? `url=${encodeURIComponent('https://example.com/v')}&domain_id=${t.defaultDomainId}&${form}`
      : { url: 'https://example.com/v', domain_id: t.defaultDomainId, ...form }
  return t.call('POST', `${API}/links`, { form: body, ...(key ? { key } : {}) })
}

async function expect422(
  res: Awaited<ReturnType<typeof post>>,
  message: Record<string, unknown[]>,
): Promise<void> {
  expectStatus(res, 422)
  expect(res.json()).toEqual(validation(message))
}

const BAD_URLS = [
  'javascript:alert(1)',
  'JavaScript:alert(document.cookie)',
  'javascript://example.com/%0Aalert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'file:///etc/passwd',
  'vbscript:msgbox(1)',
  'ftp://files.example.com/a',
  'about:blank',
  'skype:someone?call',
  '//example.com/no-scheme',
  'example.com',
  'https://',
  'http:///path-only',
  'https://exa mple.com/',
  ' https://example.com/',
  'https://example.com/\nnext',
  '',
]

describe('url and expiration_url', () => {
  it('rejects a missing url on create', async () => {
    const res = await t.call('POST', `${API}/links`, {
      form: { domain_id: t.defaultDomainId },
    })
    await expect422(res, { url: ['The url field is required.'] })
  })

  it.each(BAD_URLS.filter((u) => u !== ''))('rejects %j as url and expiration_url', async (bad) => {
    const res = await post({ url: bad, expiration_url: bad })
    await expect422(res, {
      url: ['The url field must be a valid URL.'],
      expiration_url: ['The expiration url field must be a valid URL.'],
    })
  })

  it('rejects an empty url on create as missing', async () => {
    await expect422(await post({ url: '' }), { url: ['The url field is required.'] })
  })

  it.each(BAD_URLS.filter((u) => u !== ''))('rejects %j as url on update', async (bad) => {
    const link = await createLink(t, {})
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: { url: bad } })
    await expect422(res, { url: ['The url field must be a valid URL.'] })
  })

  // Stored as the URL parser reads it (where the redirect goes).
  it.each([
    ['http://example.com', 'http://example.com/'],
    ['https://EXAMPLE.com:8443/a/b?c=d&e=f#frag', 'https://example.com:8443/a/b?c=d&e=f#frag'],
    ['https://127.0.0.1/local', 'https://127.0.0.1/local'],
    ['https://[2001:db8::1]/v6', 'https://[2001:db8::1]/v6'],
  ])('accepts the absolute http(s) URL %s', async (good, stored) => {
    const res = await post({ url: good, expiration_url: good })
    expectStatus(res, 201)
    expect(res.json().data).toMatchObject({ url: stored, expiration_url: stored })
  })

  it('accepts a url of exactly 2048 characters and rejects 2049', async () => {
    const base = 'https://example.com/'
    const exact = base + 'a'.repeat(2048 - base.length)
    expectStatus(await post({ url: exact, expiration_url: exact }), 201)
    await expect422(await post({ url: `${exact}b`, expiration_url: `${exact}b` }), {
      url: ['The url field must not be greater than 2048 characters.'],
      expiration_url: ['The expiration url field must not be greater than 2048 characters.'],
    })
  })

  it('clears expiration_url with an empty value on update', async () => {
    const link = await createLink(t, { expiration_url: 'https://example.com/gone' })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: 'expiration_url=' })
    expectStatus(res, 200)
    expect(res.json().data.expiration_url).toBeNull()
  })
})

describe('domain_id', () => {
  it('uses the account’s default domain on create when neither domain_id nor domain is given', async () => {
    const res = await t.call('POST', `${API}/links`, { form: { url: 'https://example.com/' } })
    expectStatus(res, 201)
    expect(res.json().data.domain.id).toBe(t.defaultDomainId)
    expect(res.json().data.short_url).toBe(`${BASE}/${res.json().data.alias}`)
  })

  it('rejects a domain_id that is not an integer', async () => {
    await expect422(await post({ domain_id: 'abc' }), {
      domain_id: ['The domain id field must be an integer.'],
    })
  })

  it('rejects a domain that does not exist', async () => {
    await expect422(await post({ domain_id: 999999 }), {
      domain_id: ['The selected domain id is invalid.'],
    })
  })

  it('rejects another user’s domain exactly like a missing one', async () => {
    await expect422(await post({ domain_id: bDomain.id }), {
      domain_id: ['The selected domain id is invalid.'],
    })
  })

  it('reports an invalid `domain` under the name the client used', async () => {
    const res = await t.call('POST', `${API}/links`, {
      form: { url: 'https://example.com/', domain: 999999 },
    })
    await expect422(res, { domain: ['The selected domain is invalid.'] })
  })

  it('accepts the global domain and the user’s own domain', async () => {
    expectStatus(await post({ domain_id: t.defaultDomainId }), 201)
    const res = await post({ domain_id: ownDomain.id })
    expectStatus(res, 201)
    expect(res.json().data.domain.id).toBe(ownDomain.id)
  })
})

describe('alias', () => {
  it('gives every link created without an alias a distinct random unambiguous alias', async () => {
    const aliases = new Set<string>()
    for (let i = 0; i < 15; i++) {
      const link = await createLink(t, {})
      expect(link.alias).toMatch(RANDOM_ALIAS)
      aliases.add(link.alias as string)
    }
    expect(aliases.size).toBe(15)
  })

  it('treats an empty alias on create as omitted (a random alias)', async () => {
    const res = await post({ alias: '' })
    expectStatus(res, 201)
    expect(res.json().data.alias).toMatch(RANDOM_ALIAS)
  })

  it('accepts letters, digits, dashes and underscores', async () => {
    const res = await post({ alias: 'Az09-_x' })
    expectStatus(res, 201)
    expect(res.json().data.alias).toBe('Az09-_x')
  })

  it.each(['with space', 'dot.ted', 'sla/sh', 'plus+sign', 'ñandú', 'percent%41', 'semi;colon'])(
    'rejects the alias %j',
    async (alias) => {
      await expect422(await post({ alias }), {
        alias: ['The alias field must only contain letters, numbers, dashes, and underscores.'],
      })
    },
  )

  it('accepts an alias of 255 characters and rejects 256', async () => {
    const res = await post({ alias: 'x'.repeat(255) })
    expectStatus(res, 201)
    expect(res.json().data.alias).toBe('x'.repeat(255))
    await expect422(await post({ alias: 'y'.repeat(256) }), {
      alias: ['The alias field must not be greater than 255 characters.'],
    })
  })

  it.each(['api', 'stats', 'docs', 'health', 'openapi', 'API', 'Stats'])(
    'rejects the reserved alias %j',
    async (alias) => {
      await expect422(await post({ alias }), { alias: ['The alias is reserved.'] })
    },
  )

  it('rejects a reserved alias on update too', async () => {
    const link = await createLink(t, {})
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: { alias: 'docs' } })
    await expect422(res, { alias: ['The alias is reserved.'] })
  })

  it('rejects an alias already taken in the same domain, even by another user', async () => {
    await createLink(t, { alias: 'taken-by-b' }, KEY_B)
    await expect422(await post({ alias: 'taken-by-b' }), {
      alias: ['The alias has already been taken.'],
    })
  })

  it('allows the same alias in another domain', async () => {
    await createLink(t, { alias: 'twice' })
    const res = await post({ alias: 'twice', domain_id: ownDomain.id })
    expectStatus(res, 201)
    expect(res.json().data.short_url).toBe('https://a.validation.example/twice')
  })

  it('treats aliases case-sensitively (Promo and promo are two links)', async () => {
    expectStatus(await post({ alias: 'promo' }), 201)
    expectStatus(await post({ alias: 'Promo' }), 201)
  })

  it('rejects an update to an alias another link of the domain has', async () => {
    await createLink(t, { alias: 'occupied' })
    const link = await createLink(t, { alias: 'mover' })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: { alias: 'occupied' } })
    await expect422(res, { alias: ['The alias has already been taken.'] })
  })
})

describe('title and passwords', () => {
  it('accepts a title of 255 characters and rejects 256', async () => {
    expectStatus(await post({ title: 't'.repeat(255) }), 201)
    await expect422(await post({ title: 't'.repeat(256) }), {
      title: ['The title field must not be greater than 255 characters.'],
    })
  })

  it('accepts passwords of 128 characters and rejects 129', async () => {
    const res = await post({ password: 'p'.repeat(128), privacy_password: 'q'.repeat(128) })
    expectStatus(res, 201)
    expect(res.json().data).toMatchObject({ password: true, privacy_password: true })
    await expect422(await post({ password: 'p'.repeat(129), privacy_password: 'q'.repeat(129) }), {
      password: ['The password field must not be greater than 128 characters.'],
      privacy_password: ['The privacy password field must not be greater than 128 characters.'],
    })
  })

  it('treats an empty password on create as no password', async () => {
    const res = await post('password=')
    expectStatus(res, 201)
    expect(res.json().data.password).toBe(false)
  })
})

describe('space_id and pixel_ids', () => {
  it('puts a link in the user’s own space and pixels', async () => {
    const res = await post(`space_id=${ownSpace.id}&pixel_ids[]=${ownPixel.id}`)
    expectStatus(res, 201)
    expect(res.json().data.space.id).toBe(ownSpace.id)
    expect(res.json().data.pixels.map((p: Rec) => p.id)).toEqual([ownPixel.id])
  })

  it('rejects a space that does not exist', async () => {
    await expect422(await post({ space_id: 999999 }), {
      space_id: ['The selected space id is invalid.'],
    })
  })

  it('rejects another user’s space exactly like a missing one', async () => {
    await expect422(await post({ space_id: bSpace.id }), {
      space_id: ['The selected space id is invalid.'],
    })
  })

  it('rejects a space_id that is not an integer', async () => {
    await expect422(await post({ space_id: 'abc' }), {
      space_id: ['The space id field must be an integer.'],
    })
  })

  it('rejects another user’s space on update', async () => {
    const link = await createLink(t, {})
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: { space_id: bSpace.id } })
    await expect422(res, { space_id: ['The selected space id is invalid.'] })
  })

  it('names each pixel that is missing or another user’s by its position (pixel_ids.N)', async () => {
    const res = await post(`pixel_ids[]=${ownPixel.id}&pixel_ids[]=${bPixel.id}&pixel_ids[]=999999`)
    await expect422(res, {
      'pixel_ids.1': ['The selected pixel_ids.1 is invalid.'],
      'pixel_ids.2': ['The selected pixel_ids.2 is invalid.'],
    })
  })

  it('rejects another user’s pixel on update', async () => {
    const link = await createLink(t, {})
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      form: `pixel_ids[]=${bPixel.id}`,
    })
    await expect422(res, { 'pixel_ids.0': ['The selected pixel_ids.0 is invalid.'] })
  })

  it('reports a pixel id that is not an integer and a missing pixel in the same list', async () => {
    await expect422(await post('pixel_ids[]=999999&pixel_ids[]=abc'), {
      'pixel_ids.0': ['The selected pixel_ids.0 is invalid.'],
      'pixel_ids.1': ['The pixel ids.1 field must be an integer.'],
    })
  })

  it('accepts a single pixel id sent without brackets', async () => {
    const res = await post({ pixel_ids: ownPixel.id })
    expectStatus(res, 201)
    expect(res.json().data.pixels.map((p: Rec) => p.id)).toEqual([ownPixel.id])
  })
})

describe('disabled and privacy', () => {
  it.each([
    ['disabled', 2, 'The selected disabled is invalid.'],
    ['disabled', -1, 'The selected disabled is invalid.'],
    ['privacy', 3, 'The selected privacy is invalid.'],
    ['target_type', 5, 'The selected target type is invalid.'],
  ])('rejects %s=%j', async (field, value, message) => {
    await expect422(await post({ [field]: value }), { [field]: [message] })
  })

  it('reports a non-integer disabled once, as not an integer (no follow-up message)', async () => {
    await expect422(await post({ disabled: 'yes' }), {
      disabled: ['The disabled field must be an integer.'],
    })
  })

  it('requires a privacy password with privacy=2', async () => {
    await expect422(await post({ privacy: 2 }), {
      privacy_password: ['The privacy password field is required when privacy is 2.'],
    })
  })

  it('requires a privacy password when privacy becomes 2 on update', async () => {
    const link = await createLink(t, {})
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: { privacy: 2 } })
    await expect422(res, {
      privacy_password: ['The privacy password field is required when privacy is 2.'],
    })
  })

  it('accepts privacy 0, 1 and 2 (with a password) and disabled 0 and 1', async () => {
    for (const privacy of [0, 1, 2]) {
      const res = await post({ privacy, privacy_password: 'pw', disabled: privacy % 2 })
      expectStatus(res, 201)
      expect(res.json().data).toMatchObject({ privacy, disabled: privacy % 2 })
    }
  })
})

describe('expiration', () => {
  it('requires expiration_time with expiration_date', async () => {
    await expect422(await post({ expiration_date: '2040-01-01' }), {
      expiration_time: ['The expiration time field is required when expiration date is present.'],
    })
  })

  it('requires expiration_date with expiration_time (an empty date counts as missing)', async () => {
    await expect422(await post({ expiration_time: '10:00' }), {
      expiration_date: ['The expiration date field is required when expiration time is present.'],
    })
    await expect422(await post('expiration_date=&expiration_time=10:00'), {
      expiration_date: ['The expiration date field is required when expiration time is present.'],
    })
  })

  it.each(['2023-02-29', '2030-13-01', '2030-04-31', '2030-00-10', '30-01-01', '2030/01/01'])(
    'rejects the expiration_date %j (not a real YYYY-MM-DD date)',
    async (date) => {
      await expect422(await post({ expiration_date: date, expiration_time: '10:00' }), {
        expiration_date: ['The expiration date field must match the format Y-m-d.'],
      })
    },
  )

  it.each(['24:00', '9:00', '12:60', '12:00:00', 'noon'])(
    'rejects the expiration_time %j',
    async (time) => {
      await expect422(await post({ expiration_date: '2040-01-01', expiration_time: time }), {
        expiration_time: ['The expiration time field must match the format H:i.'],
      })
    },
  )

  it('accepts 29 February of a leap year', async () => {
    const res = await post({ expiration_date: '2028-02-29', expiration_time: '00:00' })
    expectStatus(res, 201)
    expect(res.json().data.ends_at).toBe('2028-02-29T00:00:00.000000Z')
  })

  it('accepts a past instant: the link is expired at once', async () => {
    const res = await post({
      alias: 'already-over',
      expiration_date: '2001-02-03',
      expiration_time: '04:05',
    })
    expectStatus(res, 201)
    expect(res.json().data.ends_at).toBe('2001-02-03T04:05:00.000000Z')
    const id = res.json().data.id as number
    expect(await listIds(t, 'links?status=2&per_page=100')).toContain(id)
    expect(await listIds(t, 'links?status=1&per_page=100')).not.toContain(id)
  })

  it('reads date and time in UTC for an account without a time zone', async () => {
    const res = await post({ expiration_date: '2040-07-01', expiration_time: '10:00' })
    expect(res.json().data.ends_at).toBe('2040-07-01T10:00:00.000000Z')
  })

  it.each([
    ['2040-07-01', '10:00', '2040-07-01T08:00:00.000000Z'],
    ['2040-01-15', '10:00', '2040-01-15T09:00:00.000000Z'],
    ['2040-01-01', '00:30', '2039-12-31T23:30:00.000000Z'],
    ['2040-03-25', '02:30', '2040-03-25T01:30:00.000000Z'],
  ])(
    'reads %s %s in the account’s time zone (Europe/Paris) and shows ends_at in UTC as %s',
    async (date, time, endsAt) => {
      const res = await post({ expiration_date: date, expiration_time: time }, KEY_PARIS)
      expectStatus(res, 201)
      expect(res.json().data.ends_at).toBe(endsAt)
    },
  )

  it('reads the date and time of an update in the account’s time zone too', async () => {
    const link = await createLink(t, {}, KEY_PARIS)
    const res = await t.call('PATCH', `${API}/links/${link.id}`, {
      key: KEY_PARIS,
      form: { expiration_date: '2040-08-01', expiration_time: '12:00' },
    })
    expectStatus(res, 200)
    expect(res.json().data.ends_at).toBe('2040-08-01T10:00:00.000000Z')
  })

  it.each([
    ['0', null],
    ['', null],
    ['1', 1],
    ['2147483647', 2147483647],
  ])('stores expiration_clicks=%j as %j (0 or empty: no limit)', async (value, shown) => {
    const res = await post(`expiration_clicks=${value}`)
    expectStatus(res, 201)
    expect(res.json().data.expiration_clicks).toBe(shown)
  })

  it('clears a click limit with expiration_clicks=0 on update', async () => {
    const link = await createLink(t, { expiration_clicks: 5 })
    const res = await t.call('PATCH', `${API}/links/${link.id}`, { form: { expiration_clicks: 0 } })
    expectStatus(res, 200)
    expect(res.json().data.expiration_clicks).toBeNull()
  })

  it.each([
    ['-1', 'The expiration clicks field must be at least 0.'],
    ['1.5', 'The expiration clicks field must be an integer.'],
    ['many', 'The expiration clicks field must be an integer.'],
  ])('rejects expiration_clicks=%j', async (value, message) => {
    await expect422(await post(`expiration_clicks=${value}`), { expiration_clicks: [message] })
  })
})

describe('every failing field at once', () => {
  it('reports every failing field in one 422, nested fields with dotted names', async () => {
    const before = await countRows(t, 'links')
    const res = await t.call('POST', `${API}/links`, {
      form:
        `url=${encodeURIComponent('javascript:alert(1)')}&domain_id=${t.defaultDomainId}` +
        `&alias=stats&password=${'p'.repeat(129)}&title=${'t'.repeat(256)}` +
        `&space_id=${bSpace.id}&pixel_ids[]=${bPixel.id}&disabled=2&privacy=2` +
        `&expiration_url=${encodeURIComponent('data:text/html,x')}` +
        `&expiration_date=2023-02-29&expiration_time=10:00&expiration_clicks=-5&target_type=9` +
        `&country[0][key]=ZZ&country[0][value]=${encodeURIComponent('https://zz.example/')}` +
        `&platform[0][key]=iOS` +
        `&language[0][key]=de&language[0][value]=${encodeURIComponent('https://de.example/')}` +
        `&language[1][key]=de&language[1][value]=${encodeURIComponent('https://de2.example/')}` +
        `&rotation[0][value]=${encodeURIComponent('vbscript:msgbox(1)')}`,
    })
    await expect422(res, {
      url: ['The url field must be a valid URL.'],
      alias: ['The alias is reserved.'],
      password: ['The password field must not be greater than 128 characters.'],
      title: ['The title field must not be greater than 255 characters.'],
      space_id: ['The selected space id is invalid.'],
      'pixel_ids.0': ['The selected pixel_ids.0 is invalid.'],
      disabled: ['The selected disabled is invalid.'],
      privacy_password: ['The privacy password field is required when privacy is 2.'],
      expiration_url: ['The expiration url field must be a valid URL.'],
      expiration_date: ['The expiration date field must match the format Y-m-d.'],
      expiration_clicks: ['The expiration clicks field must be at least 0.'],
      target_type: ['The selected target type is invalid.'],
      'country.0.key': ['The selected country.0.key is invalid.'],
      'platform.0.value': ['The platform.0.value field is required.'],
      'language.1.key': ['The language.1.key field has a duplicate value.'],
      'rotation.0.value': ['The rotation.0.value field must be a valid URL.'],
    })
    expect(await countRows(t, 'links')).toBe(before)
  })

  it('reports a reserved alias even when the domain is invalid', async () => {
    await expect422(await post({ domain_id: 999999, alias: 'api' }), {
      domain_id: ['The selected domain id is invalid.'],
      alias: ['The alias is reserved.'],
    })
  })

  it('reports a missing url, an unknown domain and a bad alias together', async () => {
    const res = await t.call('POST', `${API}/links`, {
      form: { alias: 'bad alias', domain_id: 999999 },
    })
    await expect422(res, {
      url: ['The url field is required.'],
      domain_id: ['The selected domain id is invalid.'],
      alias: ['The alias field must only contain letters, numbers, dashes, and underscores.'],
    })
  })
})
