/**
 * Tags in the dashboard over HTTP, without JavaScript: the link form's tags field (names
 * separated by commas) saves, shows and clears them with the API's rules and messages; the
 * links list shows each tag as a badge that filters the list by it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { createLink, expectStatus, show } from './helpers.js'

let t: TestApp
let alice: FormClient
beforeAll(async () => {
  t = await createTestApp()
  await t.services.accounts.setPassword(t.userA, 'alice password')
  alice = new FormClient(t.app)
  expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
})
afterAll(() => t.close())

async function newLink(fields: Record<string, string>) {
  const csrf = csrfOf((await alice.get('/dashboard/links/new')).body)
  return alice.post('/dashboard/links/new', {
    _csrf: csrf,
    url: 'https://example.com/tagged',
    domain_id: String(t.defaultDomainId),
    ...fields,
  })
}

describe('the tags field of the link form', () => {
  it('saves names separated by commas, shows them on the edit form, and clears them', async () => {
    await createLink(t, { 'tags[]': 'Existing' })
    const res = await newLink({ alias: 'form-tags', tags: ' spring , existing,,Sale ' })
    expectStatus(res, 303)
    const id = Number(/\/dashboard\/links\/(\d+)/.exec(res.headers.location as string)?.[1])
    expect((await show(t, `links/${id}`)).tags).toEqual(['Existing', 'Sale', 'spring'])
    const edit = await alice.get(`/dashboard/links/${id}`)
    expect(edit.body).toContain('name="tags" value="Existing, Sale, spring"')
    expect(edit.body).toContain('<datalist id="tag-names"><option value="Existing"></option>')
    const cleared = await alice.post(`/dashboard/links/${id}`, {
      _csrf: csrfOf(edit.body),
      url: 'https://example.com/tagged',
      alias: 'form-tags',
      tags: '',
    })
    expectStatus(cleared, 303)
    expect((await show(t, `links/${id}`)).tags).toEqual([])
  })

  it('refuses a bad name with the API message, keeping what was typed', async () => {
    const res = await newLink({ alias: 'bad-tags', tags: `ok, ${'x'.repeat(51)}` })
    expectStatus(res, 422)
    expect(res.body).toContain('The tags.1 field must not be greater than 50 characters.')
    expect(res.body).toContain(`name="tags" value="ok, ${'x'.repeat(51)}"`)
  })
})

describe('tags in the links list', () => {
  it('shows a badge per tag that filters the list by it', async () => {
    const red = await createLink(t, { alias: 'red-link', 'tags[]': 'Red & Bold' })
    const plain = await createLink(t, { alias: 'plain-link' })
    const list = await alice.get('/dashboard/links')
    expectStatus(list, 200)
    const href = '/dashboard/links?tag=Red+%26+Bold'
    expect(list.body).toContain(
      `<a class="badge tag" href="${href.replace(/&/g, '&amp;')}" title="Links tagged Red &amp; Bold">Red &amp; Bold</a>`,
    )
    const filtered = await alice.get(href)
    expectStatus(filtered, 200)
    expect(filtered.body).toContain(`id="link-${red.id}"`)
    expect(filtered.body).not.toContain(`id="link-${plain.id}"`)
    expect(list.body).toContain(`id="link-${plain.id}"`)
    expect(filtered.body).toContain('id="filter-tag" type="text" name="tag" value="Red &amp; Bold"')
  })
})

describe('the Tags screen', () => {
  it('lists tags with their links, renames onto another name to merge, and deletes', async () => {
    const one = await createLink(t, { alias: 'screen-one', 'tags[]': 'Alpha' })
    const two = await createLink(t, { alias: 'screen-two', 'tags[]': 'Beta' })
    const list = await alice.get('/dashboard/tags')
    expectStatus(list, 200)
    expect(list.body).toContain('<strong>Alpha</strong>')
    expect(list.body).toContain('<a href="/dashboard/links?tag=Alpha">1</a>')
    const alpha = (await t.call('GET', '/api/v1/tags?search=Alpha')).json().data[0]
    const beta = (await t.call('GET', '/api/v1/tags?search=Beta')).json().data[0]
    const edit = await alice.get(`/dashboard/tags/${alpha.id}/edit`)
    expectStatus(edit, 200)
    const merged = await alice.post(`/dashboard/tags/${alpha.id}`, {
      _csrf: csrfOf(edit.body),
      name: 'beta',
      color: '3',
    })
    expectStatus(merged, 303)
    expect((await show(t, `links/${one.id}`)).tags).toEqual(['beta'])
    expect((await show(t, `links/${two.id}`)).tags).toEqual(['beta'])
    expectStatus(await t.call('GET', `/api/v1/tags/${beta.id}`), 404)
    const confirm = await alice.get(`/dashboard/tags/${alpha.id}/delete`)
    expectStatus(confirm, 200)
    const deleted = await alice.post(`/dashboard/tags/${alpha.id}/delete`, {
      _csrf: csrfOf(confirm.body),
    })
    expectStatus(deleted, 303)
    expectStatus(await t.call('GET', `/api/v1/tags/${alpha.id}`), 404)
    expect((await show(t, `links/${one.id}`)).tags).toEqual([])
  })
})
