/**
 * The dashboard's link forms, row actions and bulk actions over HTTP: every field of the create
 * and edit forms round-trips to the API's record, a refused form answers 422 with the API's own
 * messages next to the fields and every value kept, targeting rows are added and removed without
 * JavaScript, another user's link is a 404, every POST needs its CSRF token, and bulk actions
 * change only the user's own links.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { inPeoplesWords, linkNaming } from '../../src/dashboard/messages.js'
import { csrfOf, FormClient, formPairs } from '../support/dashboard.js'
import {
  API,
  createLink,
  createPixel,
  createSpace,
  expectStatus,
  RANDOM_ALIAS,
  show,
  type Rec,
} from './helpers.js'

const encode = formPairs

/** The API's 422 messages for a body, to compare with the page's. */
async function apiMessages(
  t: TestApp,
  method: 'POST' | 'PUT',
  path: string,
  body: string,
): Promise<Record<string, string[]>> {
  const res = await t.call(method, `${API}/${path}`, { form: body })
  expectStatus(res, 422)
  return (res.json() as { message: Record<string, string[]> }).message
}

const escaped = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** The value attribute of the input called `name`. */
function inputValue(html: string, name: string): string | null {
  const attrs = '(?:[^>"]|"[^"]*")*'
  const tag = new RegExp(`<input${attrs}name="${escapeRe(escaped(name))}"${attrs}>`).exec(html)?.[0]
  if (!tag) return null
  return /value="([^"]*)"/.exec(tag)?.[1] ?? ''
}

/** The selected option of the select called `name`. */
function selected(html: string, name: string): string | null {
  const select = new RegExp(
    `<select[^>]*name="${escapeRe(escaped(name))}"[^>]*>(.*?)</select>`,
  ).exec(html)?.[1]
  if (select === undefined) return null
  return /<option value="([^"]*)" selected/.exec(select)?.[1] ?? ''
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The text of the error paragraph under the field with this id. */
function fieldError(html: string, id: string): string | null {
  return (
    new RegExp(`<p class="field-error" id="${escapeRe(id)}-error">([^<]*)</p>`).exec(html)?.[1] ??
    null
  )
}

describe('dashboard link forms', () => {
  let t: TestApp
  let alice: FormClient
  let bob: FormClient
  let spaceId: number
  let otherSpaceId: number
  let pixelIds: number[]
  let bobsLink: Rec
  let bobsSpace: Rec

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.db.kysely
      .updateTable('users')
      .set({ timezone: 'Europe/Paris' })
      .where('id', '=', t.userA)
      .execute()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    await t.services.accounts.setPassword(t.userB, 'bob password')
    spaceId = (await createSpace(t, { name: 'Campaign', color: 2 })).id
    otherSpaceId = (await createSpace(t, { name: 'Other', color: 3 })).id
    pixelIds = [
      (await createPixel(t, { name: 'Meta', value: '111' })).id,
      (await createPixel(t, { name: 'Ads', type: 'google-ads', value: 'AW-1' })).id,
    ]
    bobsLink = await createLink(t, { alias: 'bobs' }, KEY_B)
    bobsSpace = await createSpace(t, { name: 'Bob space', color: 1 }, KEY_B)
    alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
    bob = new FormClient(t.app, '192.0.2.11')
    expectStatus(await bob.signIn('b@example.com', 'bob password'), 303)
  })
  afterAll(() => t.close())

  let csrf: string
  beforeEach(async () => {
    csrf = csrfOf((await alice.get('/dashboard/links/new')).body)
  })

  const linkId = (location: string | undefined) =>
    Number(/\/dashboard\/links\/(\d+)\?/.exec(location ?? '')![1])

  it('shows an empty create form on the default domain with the user’s own choices', async () => {
    const res = await alice.get('/dashboard/links/new')
    expectStatus(res, 200)
    expect(res.headers['content-security-policy']).toContain("script-src 'nonce-")
    expect(selected(res.body, 'domain_id')).toBe(String(t.defaultDomainId))
    expect(res.body).toContain('>Campaign</option>')
    expect(res.body).not.toContain('Bob space')
    expect(res.body).toContain('value="' + pixelIds[0] + '"')
    expect(res.body).toContain('Meta (facebook)')
    // Countries and languages are picked by name; the platforms are the seven.
    expect(res.body).toContain('<option value="DE">Germany (DE)</option>')
    expect(res.body).toContain('<option value="fr">French (fr)</option>')
    expect(res.body).toContain('<option value="Chrome OS">Chrome OS</option>')
    expect(res.body).toContain('Europe/Paris')
  })

  it('creates a link with every field; the API shows each one as sent', async () => {
    const res = await alice.post(
      '/dashboard/links/new',
      encode([
        ['_csrf', csrf],
        ['url', 'https://example.com/full'],
        ['domain_id', t.defaultDomainId],
        ['alias', 'full-form'],
        ['title', 'A <b>title</b>'],
        ['password', 'visitor secret'],
        ['space_id', spaceId],
        ['pixel_ids[]', ''],
        ['pixel_ids[]', pixelIds[0]!],
        ['pixel_ids[]', pixelIds[1]!],
        ['disabled', '1'],
        ['privacy', '2'],
        ['privacy_password', 'stats secret'],
        ['expiration_url', 'https://example.com/over'],
        ['expiration_date', '2031-07-01'],
        ['expiration_time', '09:30'],
        ['expiration_clicks', '50'],
        ['target_type', '1'],
        ['country[0][key]', 'DE'],
        ['country[0][value]', 'https://example.de/'],
        ['country[1][key]', 'FR'],
        ['country[1][value]', 'https://example.fr/'],
        ['platform[0][key]', 'iOS'],
        ['platform[0][value]', 'https://apps.example.com/ios'],
        ['language[0][key]', 'es'],
        ['language[0][value]', 'https://example.es/'],
        ['language[1][key]', ''],
        ['language[1][value]', ''],
        ['rotation[0][value]', 'https://a.example.com/'],
        ['rotation[1][value]', 'https://b.example.com/'],
      ]),
    )
    expectStatus(res, 303)
    expect(res.headers.location).toMatch(/^\/dashboard\/links\/\d+\?created$/)
    const id = linkId(res.headers.location)
    const record = await show(t, `links/${id}`)
    expect(record).toMatchObject({
      alias: 'full-form',
      url: 'https://example.com/full',
      short_url: 'http://short.test/full-form',
      title: 'A <b>title</b>',
      target_type: 1,
      country_target: [
        { key: 'DE', value: 'https://example.de/' },
        { key: 'FR', value: 'https://example.fr/' },
      ],
      platform_target: [{ key: 'iOS', value: 'https://apps.example.com/ios' }],
      language_target: [{ key: 'es', value: 'https://example.es/' }],
      rotation_target: [{ value: 'https://a.example.com/' }, { value: 'https://b.example.com/' }],
      disabled: 1,
      privacy: 2,
      privacy_password: true,
      password: true,
      expiration_url: 'https://example.com/over',
      expiration_clicks: 50,
      // 09:30 in Paris in summer is 07:30 UTC.
      ends_at: '2031-07-01T07:30:00.000000Z',
    })
    expect((record.space as Rec).id).toBe(spaceId)
    expect((record.pixels as Rec[]).map((p) => p.id)).toEqual(pixelIds)

    // The page it lands on names the new short URL and shows the link's values back.
    const page = await alice.get(res.headers.location!)
    expectStatus(page, 200)
    expect(page.body).toContain('The link was created:')
    expect(page.body).toContain('id="notice-short-url">http://short.test/full-form</a>')
    expect(page.body).toContain('data-copy="http://short.test/full-form"')
    expect(inputValue(page.body, 'expiration_date')).toBe('2031-07-01')
    expect(inputValue(page.body, 'expiration_time')).toBe('09:30')
    expect(inputValue(page.body, 'title')).toBe('A &lt;b>title&lt;/b>')
    expect(selected(page.body, 'country[1][key]')).toBe('FR')
    expect(inputValue(page.body, 'rotation[1][value]')).toBe('https://b.example.com/')
    expect(selected(page.body, 'privacy')).toBe('2')
    // Secrets are never shown.
    expect(inputValue(page.body, 'password')).toBe('')
    expect(page.body).toContain('A password is set. Leave this empty to keep it.')
  })

  it('creates with only a URL: a random alias on the default domain, nothing else set', async () => {
    const res = await alice.post(
      '/dashboard/links/new',
      encode([
        ['_csrf', csrf],
        ['url', 'https://example.com/plain'],
        ['domain_id', t.defaultDomainId],
        ['alias', ''],
        ['title', ''],
        ['password', ''],
        ['space_id', ''],
        ['pixel_ids[]', ''],
        ['disabled', '0'],
        ['privacy', '0'],
        ['privacy_password', ''],
        ['expiration_url', ''],
        ['expiration_date', ''],
        ['expiration_time', ''],
        ['expiration_clicks', ''],
        ['target_type', '0'],
        ['country[0][key]', ''],
        ['country[0][value]', ''],
        ['rotation[0][value]', ''],
      ]),
    )
    expectStatus(res, 303)
    const record = await show(t, `links/${linkId(res.headers.location)}`)
    expect(record.alias).toMatch(RANDOM_ALIAS)
    expect(record).toMatchObject({
      title: null,
      password: false,
      space: null,
      pixels: [],
      ends_at: null,
      expiration_clicks: null,
      country_target: null,
      rotation_target: null,
    })
  })

  it('refuses a bad form with the API’s own messages next to each field, keeping every value (422)', async () => {
    const fields: [string, string | number][] = [
      ['url', 'javascript:alert(1)'],
      ['domain_id', t.defaultDomainId],
      ['alias', 'dashboard'],
      ['title', '"><script>alert(1)</script>'],
      ['password', 'typed secret'],
      ['space_id', bobsSpace.id],
      ['pixel_ids[]', pixelIds[0]!],
      ['pixel_ids[]', 999999],
      ['disabled', '0'],
      ['privacy', '2'],
      ['privacy_password', ''],
      ['expiration_url', 'ftp://example.com/'],
      ['expiration_date', '2031-02-30'],
      ['expiration_time', '25:00'],
      ['expiration_clicks', '-1'],
      ['target_type', '1'],
      ['country[0][key]', 'DE'],
      ['country[0][value]', ''],
      ['country[1][key]', 'XX'],
      ['country[1][value]', 'https://example.com/x'],
      ['country[2][key]', 'DE'],
      ['country[2][value]', 'https://example.com/again'],
      ['country[3][key]', 'FR'],
      ['country[3][value]', 'https://example.fr/'],
      ['country[4][key]', 'FR'],
      ['country[4][value]', 'https://example.fr/2'],
      ['rotation[0][value]', 'not a url'],
    ]
    const res = await alice.post('/dashboard/links/new', encode([['_csrf', csrf], ...fields]))
    expectStatus(res, 422)
    const api = await apiMessages(t, 'POST', 'links', encode(fields))
    // Every failing field, each with the API's exact message, next to its control.
    expect(Object.keys(api).sort()).toEqual(
      [
        'alias',
        'country.0.value',
        'country.1.key',
        'country.4.key',
        'expiration_clicks',
        'expiration_date',
        'expiration_time',
        'expiration_url',
        'pixel_ids.1',
        'privacy_password',
        'rotation.0.value',
        'space_id',
        'url',
      ].sort(),
    )
    const ids: Record<string, string> = {
      'country.0.value': 'country-0-value',
      'country.1.key': 'country-1-key',
      'country.4.key': 'country-4-key',
      'rotation.0.value': 'rotation-0-value',
      'pixel_ids.1': 'pixel_ids',
    }
    // The API's messages, in people's words: each names the label the user sees.
    const said = inPeoplesWords(api, linkNaming)
    for (const [field, messages] of Object.entries(said)) {
      expect(fieldError(res.body, ids[field] ?? field), field).toBe(escaped(messages.join(' ')))
    }
    expect(fieldError(res.body, 'url')).toBe(
      '“Destination URL” must be a web address, such as https://example.org/page.',
    )
    expect(fieldError(res.body, 'rotation-0-value')).toBe(
      '“Destination 1” of the rotation must be a web address, such as https://example.org/page.',
    )
    expect(res.body).not.toMatch(/The [a-z_. 0-9]+ field/)
    expect(res.body).toContain('The link was not saved')
    // Nothing typed is lost: text, choices, rows and (on purpose) the passwords just typed.
    expect(inputValue(res.body, 'url')).toBe('javascript:alert(1)')
    expect(inputValue(res.body, 'title')).toBe('&quot;>&lt;script>alert(1)&lt;/script>')
    expect(inputValue(res.body, 'password')).toBe('typed secret')
    expect(inputValue(res.body, 'expiration_date')).toBe('2031-02-30')
    expect(inputValue(res.body, 'expiration_clicks')).toBe('-1')
    expect(selected(res.body, 'privacy')).toBe('2')
    expect(selected(res.body, 'target_type')).toBe('1')
    expect(selected(res.body, 'country[2][key]')).toBe('DE')
    expect(inputValue(res.body, 'country[2][value]')).toBe('https://example.com/again')
    expect(inputValue(res.body, 'rotation[0][value]')).toBe('not a url')
    expect(res.body).toMatch(new RegExp(`value="${pixelIds[0]}" checked`))
    expect(res.body).not.toContain('<script>alert(1)')
    // Nothing was stored.
    const list = await t.call('GET', `${API}/links?search=javascript&search_by=url`)
    expect((list.json() as { data: unknown[] }).data).toEqual([])
  })

  it('adds and removes targeting rows without JavaScript, saving nothing', async () => {
    const base: [string, string | number][] = [
      ['_csrf', csrf],
      ['url', 'https://example.com/rows'],
      ['domain_id', t.defaultDomainId],
      ['country[0][key]', 'DE'],
      ['country[0][value]', 'https://example.de/'],
      ['country[1][key]', 'FR'],
      ['country[1][value]', 'https://example.fr/'],
    ]
    const added = await alice.post(
      '/dashboard/links/new',
      encode([...base, ['_action', 'add_country']]),
    )
    expectStatus(added, 200)
    expect(selected(added.body, 'country[1][key]')).toBe('FR')
    expect(selected(added.body, 'country[2][key]')).toBe('')
    expect(inputValue(added.body, 'country[2][value]')).toBe('')
    expect(selected(added.body, 'country[3][key]')).toBeNull()
    expect(inputValue(added.body, 'url')).toBe('https://example.com/rows')
    expect(added.body).not.toContain('The link was not saved')

    const removed = await alice.post(
      '/dashboard/links/new',
      encode([...base, ['_action', 'remove_country_0']]),
    )
    expectStatus(removed, 200)
    expect(selected(removed.body, 'country[0][key]')).toBe('FR')
    expect(inputValue(removed.body, 'country[0][value]')).toBe('https://example.fr/')
    expect(selected(removed.body, 'country[1][key]')).toBeNull()

    const rotation = await alice.post(
      '/dashboard/links/new',
      encode([
        ...base,
        ['rotation[0][value]', 'https://r.example.com/'],
        ['_action', 'add_rotation'],
      ]),
    )
    expect(inputValue(rotation.body, 'rotation[0][value]')).toBe('https://r.example.com/')
    expect(inputValue(rotation.body, 'rotation[1][value]')).toBe('')

    // htmx asks for the targeting section alone: no document, no stylesheet of another nonce.
    const cookie = [...alice.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const fragment = await t.app.inject({
      method: 'POST',
      url: '/dashboard/links/new',
      headers: {
        host: 'short.test',
        cookie,
        'hx-request': 'true',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: encode([...base, ['_action', 'add_country'], ['_action', 'add_country']]),
    })
    expectStatus(fragment, 200)
    expect(fragment.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(fragment.body).toMatch(/^<div class="targeting" id="targeting"/)
    expect(fragment.body).not.toContain('<style')
    expect(selected(fragment.body, 'country[1][key]')).toBe('FR')
    expect(fragment.body).toMatch(/<select id="country-2-key" name="country\[2\]\[key\]" autofocus/)

    const list = await t.call('GET', `${API}/links?search=rows&search_by=url`)
    expect((list.json() as { data: unknown[] }).data).toEqual([])
  })

  it('takes a form of a hundred rows a list (over the sign-in forms’ limit) and refuses 101', async () => {
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i): [string, string][] => [
        [`rotation[${i}][value]`, `https://example.com/rotation/${'x'.repeat(1000)}/${i}`],
      ]).flat()
    const fields: [string, string | number][] = [
      ['url', 'https://example.com/many'],
      ['domain_id', t.defaultDomainId],
      ['alias', 'many-rows'],
      ...rows(101),
    ]
    const refused = await alice.post('/dashboard/links/new', encode([['_csrf', csrf], ...fields]))
    expectStatus(refused, 422)
    const api = await apiMessages(t, 'POST', 'links', encode(fields))
    expect(api).toEqual({ rotation: ['The rotation field must not have more than 100 items.'] })
    expect(fieldError(refused.body, 'rotation')).toBe('“Rotation” takes at most 100 rows.')
    // The rows a list may have are shown again, not more.
    expect(inputValue(refused.body, 'rotation[99][value]')).toContain('/rotation/x')
    expect(inputValue(refused.body, 'rotation[100][value]')).toBeNull()
    const saved = await alice.post(
      '/dashboard/links/new',
      encode([['_csrf', csrf], ...fields.slice(0, -1)]),
    )
    expectStatus(saved, 303)
    const record = await show(t, `links/${linkId(saved.headers.location)}`)
    expect((record.rotation_target as unknown[]).length).toBe(100)
  })

  it('refuses 1,900 rows of a list with one message and its first hundred rows, saved or not', async () => {
    const link = await createLink(t, { alias: 'many-edit' })
    const rows = Array.from({ length: 1_900 }, (_, i): [string, string] => [
      `country[${i}][key]`,
      'US',
    ])
    const message = '“Countries” takes at most 100 rows.'
    const sends: [string, [string, string | number][]][] = [
      ['/dashboard/links/new', [['alias', 'too-many-rows']]],
      ['/dashboard/links/new', [['_action', 'add_country']]],
      [`/dashboard/links/${link.id}`, []],
      [`/dashboard/links/${link.id}`, [['_action', 'remove_country_3']]],
    ]
    for (const [path, extra] of sends) {
      const res = await alice.post(
        path,
        encode([['_csrf', csrf], ['url', 'https://example.com/rows'], ...extra, ...rows]),
      )
      expectStatus(res, 422)
      const summary = /<ul id="form-errors">(.*?)<\/ul>/s.exec(res.body)?.[1] ?? ''
      expect(summary.match(/<li>[^<]*<\/li>/g)).toEqual([`<li>${message}</li>`])
      expect(fieldError(res.body, 'country')).toBe(message)
      expect(selected(res.body, 'country[99][key]')).toBe('US')
      expect(selected(res.body, 'country[100][key]')).toBeNull()
      // A full list offers no row more.
      expect(res.body).not.toContain('value="add_country"')
      expect(res.body).toContain('A list takes at most 100 rows.')
      expect(res.body).toContain('value="add_language"')
      expect(res.body.length).toBeLessThan(1_500_000)
    }
    const list = await t.call('GET', `${API}/links?search=rows&search_by=url`)
    expect((list.json() as { data: unknown[] }).data).toEqual([])
    expect((await show(t, `links/${link.id}`)).country_target).toBeNull()
  })

  it('edits a link: changes and clears fields, keeps secrets unless removed, one domain', async () => {
    const link = await createLink(t, {
      alias: 'to-edit',
      password: 'old secret',
      space_id: spaceId,
      'pixel_ids[]': pixelIds[0]!,
      expiration_date: '2030-01-15',
      expiration_time: '12:00',
      target_type: 2,
      'platform[0][key]': 'Android',
      'platform[0][value]': 'https://example.com/android',
    })
    const page = await alice.get(`/dashboard/links/${link.id}`)
    expectStatus(page, 200)
    // The expiry on the account's clock: 12:00 Paris was given, 12:00 Paris is shown.
    expect(inputValue(page.body, 'expiration_time')).toBe('12:00')
    expect(page.body).toContain('<span id="link-domain">short.test</span>')
    expect(page.body).not.toContain('name="domain_id"')
    const saved = await alice.post(
      `/dashboard/links/${link.id}`,
      encode([
        ['_csrf', csrfOf(page.body)],
        ['url', 'https://example.com/edited'],
        ['alias', 'edited-alias'],
        ['title', ''],
        ['password', ''],
        ['space_id', ''],
        ['pixel_ids[]', ''],
        ['disabled', '1'],
        ['privacy', '1'],
        ['privacy_password', ''],
        ['expiration_url', ''],
        ['expiration_date', ''],
        ['expiration_time', ''],
        ['expiration_clicks', '7'],
        ['target_type', '0'],
        ['platform[0][key]', ''],
        ['platform[0][value]', ''],
      ]),
    )
    expectStatus(saved, 303)
    expect(saved.headers.location).toBe(`/dashboard/links/${link.id}?saved`)
    expect(await show(t, `links/${link.id}`)).toMatchObject({
      alias: 'edited-alias',
      url: 'https://example.com/edited',
      password: true,
      space: null,
      pixels: [],
      disabled: 1,
      privacy: 1,
      ends_at: null,
      expiration_clicks: 7,
      target_type: 0,
      platform_target: null,
    })
    expect((await alice.get(saved.headers.location!)).body).toContain('The changes were saved:')

    // The password goes only when its box is ticked.
    const again = await alice.post(
      `/dashboard/links/${link.id}`,
      encode([
        ['_csrf', csrf],
        ['url', 'https://example.com/edited'],
        ['_clear_password', '1'],
      ]),
    )
    expectStatus(again, 303)
    expect((await show(t, `links/${link.id}`)).password).toBe(false)
  })

  it('an unchanged fetched title is not sent, so it stays replaceable by the fetch', async () => {
    const link = await createLink(t, { alias: 'fetched-title' })
    await t.services.db.kysely
      .updateTable('links')
      .set({ title: 'From the page' })
      .where('id', '=', link.id)
      .execute()
    const res = await alice.post(
      `/dashboard/links/${link.id}`,
      encode([
        ['_csrf', csrf],
        ['url', 'https://example.com/landing'],
        ['title', 'From the page'],
      ]),
    )
    expectStatus(res, 303)
    const row = await t.services.db.kysely
      .selectFrom('links')
      .select(['title', 'title_locked'])
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ title: 'From the page', title_locked: 0 })
  })

  it('an edit the API refuses answers 422 with its messages and the typed values', async () => {
    const link = await createLink(t, { alias: 'edit-refused' })
    const fields: [string, string][] = [
      ['url', ''],
      ['alias', 'bad alias!'],
      ['privacy', '2'],
    ]
    const res = await alice.post(
      `/dashboard/links/${link.id}`,
      encode([['_csrf', csrf], ...fields]),
    )
    expectStatus(res, 422)
    const api = await apiMessages(t, 'PUT', `links/${link.id}`, encode(fields))
    expect(Object.keys(api).sort()).toEqual(['alias', 'privacy_password', 'url'])
    for (const [field, messages] of Object.entries(inPeoplesWords(api, linkNaming)))
      expect(fieldError(res.body, field)).toBe(escaped(messages.join(' ')))
    expect(fieldError(res.body, 'url')).toBe('Fill in “Destination URL”.')
    expect(inputValue(res.body, 'alias')).toBe('bad alias!')
    expect((await show(t, `links/${link.id}`)).alias).toBe('edit-refused')
  })

  it('another user’s link, an unknown id and a malformed id are 404 pages, nothing changed', async () => {
    for (const path of [
      `/dashboard/links/${bobsLink.id}`,
      `/dashboard/links/${bobsLink.id}/delete`,
      '/dashboard/links/999999',
      '/dashboard/links/abc',
    ]) {
      const res = await alice.get(path)
      expectStatus(res, 404)
      expect(res.headers['content-type']).toContain('text/html')
    }
    for (const path of ['', '/disable', '/enable', '/delete']) {
      const res = await alice.post(
        `/dashboard/links/${bobsLink.id}${path}`,
        encode([
          ['_csrf', csrf],
          ['url', 'https://example.com/stolen'],
        ]),
      )
      expectStatus(res, 404)
    }
    expect(await show(t, `links/${bobsLink.id}`, KEY_B)).toMatchObject({
      url: 'https://example.com/landing',
      disabled: 0,
    })
  })

  it('every new POST without the CSRF token is a 403 page and changes nothing', async () => {
    const link = await createLink(t, { alias: 'csrf-target' })
    const posts: [string, string][] = [
      ['/dashboard/links/new', encode([['url', 'https://example.com/csrf']])],
      [`/dashboard/links/${link.id}`, encode([['url', 'https://example.com/csrf']])],
      [`/dashboard/links/${link.id}/disable`, ''],
      [`/dashboard/links/${link.id}/enable`, ''],
      [`/dashboard/links/${link.id}/delete`, ''],
      [
        '/dashboard/links/bulk',
        encode([
          ['action', 'delete'],
          ['confirm', '1'],
          ['ids[]', link.id],
        ]),
      ],
    ]
    for (const [path, body] of posts) {
      for (const token of [null, 'wrong-token']) {
        const res = await alice.post(path, token === null ? body : `${body}&_csrf=${token}`)
        expectStatus(res, 403)
        expect(res.body).toContain('Nothing was changed.')
      }
    }
    expect(await show(t, `links/${link.id}`)).toMatchObject({
      url: 'https://example.com/landing',
      disabled: 0,
    })
  })

  it('the list has row actions: edit, statistics, QR code, preview, disable/enable, delete, copy', async () => {
    const link = await createLink(t, { alias: 'row-actions' })
    const list = await alice.get('/dashboard/links?search=row-actions&search_by=alias')
    expectStatus(list, 200)
    const row = new RegExp(`<tr id="link-${link.id}">(.*?)</tr>`).exec(list.body)![1]!
    expect(row).toContain(`href="/dashboard/links/${link.id}"`)
    expect(row).toContain(`href="/dashboard/links/${link.id}/stats"`)
    expect(row).toContain(`href="/dashboard/links/${link.id}/qr"`)
    expect(row).toContain('href="http://short.test/row-actions+"')
    expect(row).toContain(`action="/dashboard/links/${link.id}/disable"`)
    expect(row).toContain(`href="/dashboard/links/${link.id}/delete"`)
    expect(row).toContain('data-copy="http://short.test/row-actions"')
    expect(row).toContain(`name="ids[]" value="${link.id}" form="bulk"`)

    const back = '/dashboard/links?search=row-actions&search_by=alias&page=1'
    const disabled = await alice.post(
      `/dashboard/links/${link.id}/disable`,
      encode([
        ['_csrf', csrf],
        ['_back', back],
      ]),
    )
    expectStatus(disabled, 303)
    expect(disabled.headers.location).toBe(`${back}&done=disabled-1`)
    expect((await show(t, `links/${link.id}`)).disabled).toBe(1)
    const after = await alice.get(disabled.headers.location!)
    expect(after.body).toContain(
      '<p class="notice" role="status" id="links-notice">1 link was disabled.</p>',
    )
    // The notice is not carried into the list's own links.
    expect(after.body).toContain(`name="_back" value="${escaped(back)}"`)
    expect(after.body).toContain(`action="/dashboard/links/${link.id}/enable"`)
    const enabled = await alice.post(
      `/dashboard/links/${link.id}/enable`,
      encode([
        ['_csrf', csrf],
        ['_back', 'https://evil.example/'],
      ]),
    )
    expect(enabled.headers.location).toBe('/dashboard/links?done=enabled-1')
    expect((await show(t, `links/${link.id}`)).disabled).toBe(0)
  })

  it('deletes a link only after its confirmation page', async () => {
    const link = await createLink(t, { alias: 'delete-me' })
    const confirm = await alice.get(`/dashboard/links/${link.id}/delete`)
    expectStatus(confirm, 200)
    expect(confirm.body).toContain('Delete this link?')
    expect(confirm.body).toContain('http://short.test/delete-me')
    expect(confirm.body).toContain(`action="/dashboard/links/${link.id}/delete"`)
    expectStatus(await t.call('GET', `${API}/links/${link.id}`), 200)
    const res = await alice.post(
      `/dashboard/links/${link.id}/delete`,
      encode([['_csrf', csrfOf(confirm.body)]]),
    )
    expectStatus(res, 303)
    expect(res.headers.location).toBe('/dashboard/links?done=deleted-1')
    expectStatus(await t.call('GET', `${API}/links/${link.id}`), 404)
  })

  describe('bulk actions', () => {
    const bulk = (pairs: [string, string | number][]) =>
      alice.post('/dashboard/links/bulk', encode([['_csrf', csrf], ...pairs]))

    it('disable, enable and move change the user’s own selected links; others are ignored', async () => {
      const ids = [
        (await createLink(t, { alias: 'bulk-1' })).id,
        (await createLink(t, { alias: 'bulk-2' })).id,
      ]
      const events: string[] = []
      const stop = t.services.events.afterCommit((e) =>
        events.push(`${e.type} ${e.links?.[0]?.id}`),
      )
      const selection = [...ids, bobsLink.id].map((id) => ['ids[]', id] as [string, number])
      const res = await bulk([
        ['action', 'disable'],
        ['_back', '/dashboard/links?status=3'],
        ...selection,
      ])
      expectStatus(res, 303)
      expect(res.headers.location).toBe('/dashboard/links?status=3&done=disabled-2')
      expect((await alice.get(res.headers.location!)).body).toContain('2 links were disabled.')
      for (const id of ids) expect((await show(t, `links/${id}`)).disabled).toBe(1)
      expect((await show(t, `links/${bobsLink.id}`, KEY_B)).disabled).toBe(0)
      // One event per link changed, each as a single update raises it.
      expect(events).toEqual(ids.map((id) => `link.updated ${id}`))
      stop()

      expectStatus(await bulk([['action', 'enable'], ...selection]), 303)
      for (const id of ids) expect((await show(t, `links/${id}`)).disabled).toBe(0)

      expectStatus(await bulk([['action', 'move'], ['space_id', otherSpaceId], ...selection]), 303)
      for (const id of ids)
        expect(((await show(t, `links/${id}`)).space as Rec).id).toBe(otherSpaceId)
      expect((await show(t, `links/${bobsLink.id}`, KEY_B)).space).toBeNull()

      // Into another user's space: the API's message, nothing moved.
      const refused = await bulk([['action', 'move'], ['space_id', bobsSpace.id], ...selection])
      expectStatus(refused, 422)
      expect(refused.body).toContain('The selected space id is invalid.')
      expect(((await show(t, `links/${ids[0]}`)).space as Rec).id).toBe(otherSpaceId)

      expectStatus(await bulk([['action', 'move'], ['space_id', ''], ...selection]), 303)
      expect((await show(t, `links/${ids[0]}`)).space).toBeNull()
    })

    it('delete asks first, listing only the user’s own links, then deletes them in one go', async () => {
      const ids = [
        (await createLink(t, { alias: 'gone-1' })).id,
        (await createLink(t, { alias: 'gone-2' })).id,
      ]
      const selection = [...ids, bobsLink.id].map((id) => ['ids[]', id] as [string, number])
      const ask = await bulk([['action', 'delete'], ...selection])
      expectStatus(ask, 200)
      expect(ask.body).toContain('Delete 2 links?')
      expect(ask.body).toContain('http://short.test/gone-1')
      expect(ask.body).not.toContain('bobs')
      for (const id of ids) expectStatus(await t.call('GET', `${API}/links/${id}`), 200)
      const done = await alice.post(
        '/dashboard/links/bulk',
        encode([['_csrf', csrfOf(ask.body)], ['action', 'delete'], ['confirm', '1'], ...selection]),
      )
      expectStatus(done, 303)
      for (const id of ids) expectStatus(await t.call('GET', `${API}/links/${id}`), 404)
      expectStatus(await t.call('GET', `${API}/links/${bobsLink.id}`, { key: KEY_B }), 200)
    })

    it('with nothing selected it goes back to the same list, which says what to do first', async () => {
      const back = '/dashboard/links?search=bulk&status=1&page=2'
      const none = await bulk([
        ['action', 'disable'],
        ['_back', back],
      ])
      expectStatus(none, 303)
      expect(none.headers.location).toBe(`${back}&done=none-0`)
      const list = await alice.get(none.headers.location as string)
      expectStatus(list, 200)
      expect(list.body).toContain(
        '<p class="notice" role="status" id="links-notice">No link was selected, so nothing changed. Tick the links first, then choose what to do with them.</p>',
      )
      // The filters are kept: the search box still holds the term.
      expect(list.body).toContain('name="search" value="bulk"')
    })

    it('without an action, or with ids none of which is the user’s, it says so (422) and changes nothing', async () => {
      const junk = await bulk([
        ['action', 'disable'],
        ['ids[]', 'x'],
      ])
      expectStatus(junk, 422)
      expect(junk.body).toContain('Select at least one link.')
      const unknown = await bulk([
        ['action', 'explode'],
        ['ids[]', bobsLink.id],
      ])
      expectStatus(unknown, 422)
      expect(unknown.body).toContain('Choose what to do with the selected links.')
      const others = await bulk([
        ['action', 'delete'],
        ['ids[]', bobsLink.id],
      ])
      expectStatus(others, 422)
      expect(others.body).toContain('None of the selected links exist any more.')
    })

    it('refuses more than 100 links at once, before looking at any of them', async () => {
      const id = (await createLink(t, { alias: 'bulk-many' })).id
      const selection = Array.from({ length: 1_000 }, () => ['ids[]', id] as [string, number])
      for (const action of ['disable', 'delete']) {
        const res = await bulk([['action', action], ...selection])
        expectStatus(res, 422)
        expect(res.body).toContain('Select at most 100 links.')
      }
      expect((await show(t, `links/${id}`)).disabled).toBe(0)
      expectStatus(await bulk([['action', 'disable'], ...selection.slice(0, 100)]), 303)
      expect((await show(t, `links/${id}`)).disabled).toBe(1)
    })
  })

  it('bob sees only his own choices and cannot use alice’s pixels or spaces', async () => {
    const page = await bob.get('/dashboard/links/new')
    expect(page.body).not.toContain('Meta (facebook)')
    expect(page.body).not.toContain('>Campaign<')
    const res = await bob.post(
      '/dashboard/links/new',
      encode([
        ['_csrf', csrfOf(page.body)],
        ['url', 'https://example.com/bob'],
        ['domain_id', t.defaultDomainId],
        ['space_id', spaceId],
        ['pixel_ids[]', pixelIds[0]!],
      ]),
    )
    expectStatus(res, 422)
    expect(fieldError(res.body, 'space_id')).toBe('Choose “Space” from the list.')
    expect(fieldError(res.body, 'pixel_ids')).toBe('Choose “Pixels” from the list.')
  })
})
