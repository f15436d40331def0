/**
 * The dashboard's UTM section, UTM templates screen and Duplicate action over HTTP (no
 * JavaScript; htmx where the page uses it): fields merged into the destination URL on save,
 * a template applied and saved without saving the link, and a link duplicated with CSRF.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY_B, createTestApp, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { API, createLink, expectStatus, show, type Rec } from './helpers.js'

function inputValue(html: string, name: string): string | null {
  const attrs = '(?:[^>"]|"[^"]*")*'
  const tag = new RegExp(`<input${attrs}name="${name}"${attrs}>`).exec(html)?.[0]
  if (!tag) return null
  return /value="([^"]*)"/.exec(tag)?.[1] ?? ''
}

const amp = (text: string) => text.replace(/&/g, '&amp;')

describe('dashboard UTM and duplicate', () => {
  let t: TestApp
  let alice: FormClient
  let csrf: string

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
    csrf = csrfOf((await alice.get('/dashboard/links/new')).body)
  })
  afterAll(() => t.close())

  async function linkCount(): Promise<number> {
    const res = await t.call('GET', `${API}/links`)
    return (res.json() as { meta: { total: number } }).meta.total
  }

  async function createTemplate(form: Record<string, string>, key?: string): Promise<Rec> {
    const res = await t.call('POST', `${API}/utm-templates`, { form, ...(key ? { key } : {}) })
    expectStatus(res, 201)
    return res.json().data as Rec
  }

  it('merges the fields into the URL on create: set, replace, remove; other pairs and the fragment kept', async () => {
    const res = await alice.post('/dashboard/links/new', {
      _csrf: csrf,
      url: 'https://example.org/p?a=1&utm_source=old&utm_term=gone#frag',
      alias: 'utm-created',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring sale',
      utm_term: '',
      utm_content: '',
    })
    expectStatus(res, 303)
    const id = Number(
      /\/dashboard\/links\/(\d+)\?created$/.exec(res.headers.location as string)![1],
    )
    const link = await show(t, `links/${id}`)
    expect(link.url).toBe(
      'https://example.org/p?a=1&utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale#frag',
    )

    // The edit form reads the fields back from the URL.
    const page = await alice.get(`/dashboard/links/${id}`)
    expectStatus(page, 200)
    expect(inputValue(page.body, 'utm_source')).toBe('newsletter')
    expect(inputValue(page.body, 'utm_campaign')).toBe('spring sale')
    expect(inputValue(page.body, 'utm_term')).toBe('')
    expect(page.body).toContain('source newsletter · medium email · campaign spring sale')

    // Emptying a field on edit removes its parameter.
    const saved = await alice.post(`/dashboard/links/${id}`, {
      _csrf: csrf,
      url: link.url as string,
      alias: 'utm-created',
      utm_source: 'newsletter',
      utm_medium: '',
      utm_campaign: 'spring sale',
      utm_term: '',
      utm_content: 'hero',
    })
    expectStatus(saved, 303)
    expect((await show(t, `links/${id}`)).url).toBe(
      'https://example.org/p?a=1&utm_source=newsletter&utm_campaign=spring%20sale&utm_content=hero#frag',
    )
  })

  it('leaves the URL as typed when the form sends no utm fields', async () => {
    const res = await alice.post('/dashboard/links/new', {
      _csrf: csrf,
      url: 'https://example.org/?utm_source=kept',
      alias: 'utm-untouched',
    })
    expectStatus(res, 303)
    const list = await t.call('GET', `${API}/links?search=utm-untouched&search_by=alias`)
    expect(list.json().data[0].url).toBe('https://example.org/?utm_source=kept')
  })

  it('applies a template without JavaScript: the fields and the URL filled, the link not saved', async () => {
    const template = await createTemplate({
      name: 'Newsletter',
      utm_source: 'newsletter',
      utm_medium: 'email',
    })
    const before = await linkCount()
    const res = await alice.post('/dashboard/links/new', {
      _csrf: csrf,
      url: 'https://example.org/apply?x=1&utm_term=old',
      alias: 'applied',
      utm_source: '',
      utm_medium: '',
      utm_campaign: 'typed',
      utm_term: 'old',
      utm_content: '',
      _utm_template: String(template.id),
      _action: 'utm_apply',
    })
    expectStatus(res, 200)
    // A template sets all five: the ones it leaves out are emptied.
    expect(inputValue(res.body, 'url')).toBe(
      amp('https://example.org/apply?x=1&utm_source=newsletter&utm_medium=email'),
    )
    expect(inputValue(res.body, 'utm_source')).toBe('newsletter')
    expect(inputValue(res.body, 'utm_campaign')).toBe('')
    expect(inputValue(res.body, 'alias')).toBe('applied')
    expect(res.body).toContain('The template “Newsletter” was applied: save the link to keep it.')
    expect(res.body).toMatch(/<details class="option" id="section-utm" open>/)
    expect(res.body).toMatch(new RegExp(`<option value="${template.id}" selected`))
    expect(await linkCount()).toBe(before)
  })

  it('refuses to apply no template, or another user’s, with a message and nothing saved', async () => {
    const theirs = await createTemplate({ name: 'Bob’s', utm_source: 'bob' }, KEY_B)
    const before = await linkCount()
    for (const [chosen, message] of [
      ['', 'Choose a template to apply.'],
      [String(theirs.id), 'That template does not exist any more.'],
    ]) {
      const res = await alice.post('/dashboard/links/new', {
        _csrf: csrf,
        url: 'https://example.org/none',
        _utm_template: chosen!,
        _action: 'utm_apply',
      })
      expectStatus(res, 422)
      expect(res.body).toContain(`<p class="field-error" id="utm-template-error">${message}</p>`)
      expect(inputValue(res.body, 'url')).toBe('https://example.org/none')
    }
    expect(await linkCount()).toBe(before)
  })

  it('saves the fields as a template, and refuses a name already used', async () => {
    const before = await linkCount()
    const form = {
      _csrf: csrf,
      url: 'https://example.org/save',
      utm_source: 'ads',
      utm_medium: 'cpc',
      utm_campaign: '',
      utm_term: 'shoes',
      utm_content: '',
      _utm_template_name: 'Paid search',
      _action: 'utm_save',
    }
    const res = await alice.post('/dashboard/links/new', form)
    expectStatus(res, 200)
    expect(res.body).toContain('Saved as the template “Paid search”.')
    const list = await t.call('GET', `${API}/utm-templates?search=Paid`)
    const saved = (list.json() as { data: Rec[] }).data
    expect(saved).toEqual([
      expect.objectContaining({
        name: 'Paid search',
        utm_source: 'ads',
        utm_medium: 'cpc',
        utm_campaign: null,
        utm_term: 'shoes',
        utm_content: null,
      }),
    ])
    expect(res.body).toMatch(new RegExp(`<option value="${saved[0]!.id}" selected`))
    expect(inputValue(res.body, 'url')).toBe(
      amp('https://example.org/save?utm_source=ads&utm_medium=cpc&utm_term=shoes'),
    )

    const again = await alice.post('/dashboard/links/new', form)
    expectStatus(again, 422)
    expect(again.body).toContain(
      '<p class="field-error" id="_utm_template_name-error">The name has already been taken.</p>',
    )
    expect(inputValue(again.body, '_utm_template_name')).toBe('Paid search')
    const unnamed = await alice.post('/dashboard/links/new', { ...form, _utm_template_name: '' })
    expectStatus(unnamed, 422)
    expect(unnamed.body).toContain('id="_utm_template_name-error">The name field is required.</p>')
    expect(await linkCount()).toBe(before)
  })

  it('with htmx, "save as template" answers the page whose UTM section htmx swaps in', async () => {
    const cookie = [...alice.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const send = (name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/dashboard/links/new',
        headers: {
          host: 'short.test',
          cookie,
          'hx-request': 'true',
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({
          _csrf: csrf,
          url: 'https://example.org/htmx',
          utm_source: 'htmx',
          _utm_template_name: name,
          _action: 'utm_save',
        }).toString(),
      })
    const page = await alice.get('/dashboard/links/new')
    expect(page.body).toContain(
      'id="utm-save" hx-post="/dashboard/links/new" hx-target="#utm" hx-select="#utm" hx-swap="outerHTML"',
    )
    const res = await send('From htmx')
    expectStatus(res, 200)
    expect(res.body).toMatch(/<div id="utm" class="utm" data-utm-form/)
    expect(res.body).toContain('Saved as the template “From htmx”.')
    const refused = await send('From htmx')
    expectStatus(refused, 422)
    expect(refused.body).toContain('id="_utm_template_name-error">The name has already been taken.')
  })

  it('lists, creates, edits and deletes templates on their screen, another user’s a 404', async () => {
    const made = await alice.post('/dashboard/utm-templates', {
      _csrf: csrf,
      name: 'Screen made',
      utm_source: 'screen',
      utm_medium: 'web',
      utm_campaign: '',
      utm_term: '',
      utm_content: '',
    })
    expectStatus(made, 303)
    expect(made.headers.location).toBe('/dashboard/utm-templates?done=created')
    const list = await alice.get('/dashboard/utm-templates?done=created')
    expectStatus(list, 200)
    expect(list.body).toContain('UTM template created.')
    expect(list.body).toContain('<strong>Screen made</strong>')
    const [record] = (await t.call('GET', `${API}/utm-templates?search=Screen`)).json()
      .data as Rec[]
    expect(record).toMatchObject({ utm_source: 'screen', utm_medium: 'web', utm_campaign: null })

    const edit = await alice.get(`/dashboard/utm-templates/${record!.id}/edit`)
    expectStatus(edit, 200)
    expect(inputValue(edit.body, 'utm_medium')).toBe('web')
    const saved = await alice.post(`/dashboard/utm-templates/${record!.id}`, {
      _csrf: csrf,
      name: 'Screen made',
      utm_source: 'screen',
      utm_medium: '',
      utm_campaign: 'c',
      utm_term: '',
      utm_content: '',
    })
    expectStatus(saved, 303)
    expect(await show(t, `utm-templates/${record!.id}`)).toMatchObject({
      utm_medium: null,
      utm_campaign: 'c',
    })
    const long = await alice.post(`/dashboard/utm-templates/${record!.id}`, {
      _csrf: csrf,
      name: 'Screen made',
      utm_source: 's'.repeat(256),
    })
    expectStatus(long, 422)
    expect(long.body).toContain('“utm_source” is too long: at most 255 characters.')

    const theirs = await createTemplate({ name: 'Not yours' }, KEY_B)
    expectStatus(await alice.get(`/dashboard/utm-templates/${theirs.id}/edit`), 404)
    expectStatus(
      await alice.post(`/dashboard/utm-templates/${theirs.id}/delete`, { _csrf: csrf }),
      404,
    )

    const deleted = await alice.post(`/dashboard/utm-templates/${record!.id}/delete`, {
      _csrf: csrf,
    })
    expectStatus(deleted, 303)
    expectStatus(await t.call('GET', `${API}/utm-templates/${record!.id}`), 404)
  })

  it('duplicates a link from its row menu and its page, with CSRF, landing on the copy', async () => {
    const link = await createLink(t, { alias: 'dup-source', title: 'Dup', password: 'pw' })
    const list = await alice.get('/dashboard/links')
    expect(list.body).toContain(
      `<form method="post" action="/dashboard/links/${link.id}/duplicate" class="inline-form">`,
    )
    const page = await alice.get(`/dashboard/links/${link.id}`)
    expect(page.body).toContain(`action="/dashboard/links/${link.id}/duplicate"`)

    const refused = await alice.post(`/dashboard/links/${link.id}/duplicate`, { _csrf: 'wrong' })
    expectStatus(refused, 403)
    const before = await linkCount()
    expect(before).toBeGreaterThan(0)

    const res = await alice.post(`/dashboard/links/${link.id}/duplicate`, { _csrf: csrf })
    expectStatus(res, 303)
    const id = Number(
      /^\/dashboard\/links\/(\d+)\?duplicated$/.exec(res.headers.location as string)![1],
    )
    expect(await linkCount()).toBe(before + 1)
    const copy = await show(t, `links/${id}`)
    expect(copy).toMatchObject({ url: link.url, title: 'Dup', password: true, clicks: 0 })
    expect(copy.alias).not.toBe('dup-source')
    const landed = await alice.get(res.headers.location as string)
    expectStatus(landed, 200)
    expect(landed.body).toContain('The link was duplicated, with every setting and a new alias:')

    const theirs = await createLink(t, { alias: 'dup-theirs' }, KEY_B)
    expectStatus(await alice.post(`/dashboard/links/${theirs.id}/duplicate`, { _csrf: csrf }), 404)
    expect(await linkCount()).toBe(before + 1)
  })
})
