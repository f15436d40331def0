/**
 * The link form's "Social preview" section over HTTP (no JavaScript): the three fields, a card
 * drawn from the stored or typed values, messages in people's words with the section opened,
 * clearing by emptying the fields, and `img-src https:` on the link form alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { API, expectStatus, show } from './helpers.js'

describe('dashboard social preview', () => {
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

  function section(html: string): { open: boolean; state: string } {
    const found =
      /<details class="option" id="section-social"( open)?><summary><span class="option-name">Social preview<\/span><span class="option-state" id="state-social">([^<]*)<\/span>/.exec(
        html,
      )
    if (!found) throw new Error('no social section')
    return { open: found[1] !== undefined, state: found[2]! }
  }

  const card = (html: string) => html.slice(html.indexOf('<figure'), html.indexOf('</figure>') + 9)

  it('shows the section closed on a new link, its card on the chosen domain, images allowed over https', async () => {
    const res = await alice.get('/dashboard/links/new')
    expectStatus(res, 200)
    expect(section(res.body)).toEqual({ open: false, state: 'Off: fetchers follow the link' })
    expect(res.body).toContain('<input type="text" id="og_title" name="og_title" value ')
    expect(res.body).toMatch(
      /<textarea id="og_description" name="og_description" rows="3" maxlength="1000"[^>]*><\/textarea>/,
    )
    expect(res.body).toContain(
      '<input type="text" inputmode="url" id="og_image" name="og_image" value placeholder="https://"',
    )
    expect(card(res.body)).toBe(
      '<figure class="social-card" id="social-card" data-fallback-title="short.test" aria-label="The card as networks draw it">' +
        '<div class="social-card-image" id="social-card-image-box" hidden><img id="social-card-image" alt referrerpolicy="no-referrer"/></div>' +
        '<figcaption class="social-card-text"><span class="social-card-domain" id="social-card-domain">short.test</span>' +
        '<strong class="social-card-title" id="social-card-title">short.test</strong>' +
        '<span class="social-card-description" id="social-card-description"></span></figcaption></figure>',
    )
    expect(res.headers['content-security-policy']).toContain("img-src 'self' data: https:;")
    const list = await alice.get('/dashboard/links')
    expect(list.headers['content-security-policy']).toContain("img-src 'self' data:;")
  })

  it('saves the fields from the form and draws the stored card, escaped, on the edit form', async () => {
    const res = await alice.post('/dashboard/links/new', {
      _csrf: csrf,
      url: 'https://example.org/sale',
      domain_id: String(t.defaultDomainId),
      alias: 'dash-card',
      og_title: 'Big <sale> "today"',
      og_description: 'Fifty & more',
      og_image: 'https://cdn.example.com/card.png',
    })
    expectStatus(res, 303)
    const id = /\/dashboard\/links\/(\d+)\?created/.exec(res.headers.location as string)![1]
    expect(await show(t, `links/${id}`)).toMatchObject({
      og_title: 'Big <sale> "today"',
      og_description: 'Fifty & more',
      og_image: 'https://cdn.example.com/card.png',
    })
    const edit = await alice.get(`/dashboard/links/${id}`)
    expect(section(edit.body)).toEqual({ open: false, state: 'On: 3 of 3 set' })
    expect(card(edit.body)).toBe(
      '<figure class="social-card" id="social-card" data-fallback-title="http://short.test/dash-card" aria-label="The card as networks draw it">' +
        '<div class="social-card-image" id="social-card-image-box"><img id="social-card-image" src="https://cdn.example.com/card.png" alt referrerpolicy="no-referrer"/></div>' +
        '<figcaption class="social-card-text"><span class="social-card-domain" id="social-card-domain">short.test</span>' +
        '<strong class="social-card-title" id="social-card-title">Big &lt;sale> &quot;today&quot;</strong>' +
        '<span class="social-card-description" id="social-card-description">Fifty &amp; more</span></figcaption></figure>',
    )
    expect(edit.body).toContain('<p class="muted small" id="social-card-http" hidden>')

    const cleared = await alice.post(`/dashboard/links/${id}`, {
      _csrf: csrf,
      url: 'https://example.org/sale',
      alias: 'dash-card',
      og_title: '',
      og_description: '',
      og_image: '',
    })
    expectStatus(cleared, 303)
    expect(await show(t, `links/${id}`)).toMatchObject({
      og_title: null,
      og_description: null,
      og_image: null,
    })
  })

  it('shows an http image as a note, not loaded, and the link title when there is no preview title', async () => {
    const made = await t.call('POST', `${API}/links`, {
      json: {
        url: 'https://example.org/plain',
        alias: 'dash-http',
        title: 'Stored title',
        og_image: 'http://img.example.com/a.png',
      },
    })
    expectStatus(made, 201)
    const { id } = (made.json() as { data: { id: number } }).data
    const edit = await alice.get(`/dashboard/links/${id}`)
    expect(section(edit.body).state).toBe('On: 1 of 3 set')
    expect(card(edit.body)).toContain(
      '<div class="social-card-image" id="social-card-image-box" hidden><img id="social-card-image" alt',
    )
    expect(card(edit.body)).toContain(
      '<strong class="social-card-title" id="social-card-title">Stored title</strong>',
    )
    expect(edit.body).toContain('<p class="muted small" id="social-card-http">')
  })

  it('opens the section on a refused field, with the messages in its words, and keeps what was typed', async () => {
    const res = await alice.post('/dashboard/links/new', {
      _csrf: csrf,
      url: 'https://example.org/x',
      domain_id: String(t.defaultDomainId),
      og_title: 'x'.repeat(256),
      og_image: 'javascript:alert(1)',
    })
    expectStatus(res, 422)
    expect(section(res.body).open).toBe(true)
    const messages = [
      ...res.body.matchAll(/<p class="field-error" id="(og_[a-z]+)-error">([^<]*)<\/p>/g),
    ].map((m) => [m[1], m[2]])
    expect(messages).toEqual([
      ['og_title', expect.stringContaining('“Preview title”')],
      ['og_image', expect.stringContaining('“Preview image URL”')],
    ])
    expect(res.body).toContain('value="javascript:alert(1)"')
    expect(card(res.body)).toContain('hidden><img id="social-card-image" alt')
  })
})
