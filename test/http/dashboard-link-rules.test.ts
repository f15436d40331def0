/**
 * The link form's Rules section over HTTP: rules saved from the form as the API stores them,
 * rules and conditions added, removed and moved without JavaScript (nothing saved), the section
 * alone for htmx, a refused rule shown next to its field with every value kept, and the edit
 * form showing and clearing stored rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { API, expectStatus, show } from './helpers.js'

type Pairs = [string, string | number][]

const encode = (pairs: Pairs) =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&')

const attr = (name: string) => name.replace(/\[/g, '\\[').replace(/\]/g, '\\]')

/** The value of the input called `name`, or null when there is none. */
function inputValue(html: string, name: string): string | null {
  const tag = new RegExp(`<input[^>]*name="${attr(name)}"[^>]*>`).exec(html)?.[0]
  return tag === undefined ? null : (/value="([^"]*)"/.exec(tag)?.[1] ?? '')
}

/** The selected option of the select called `name`, or null when there is none. */
function selected(html: string, name: string): string | null {
  const body = new RegExp(`<select[^>]*name="${attr(name)}"[^>]*>(.*?)</select>`).exec(html)?.[1]
  return body === undefined ? null : (/<option value="([^"]*)" selected/.exec(body)?.[1] ?? '')
}

describe('the Rules section of the link form', () => {
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

  const base = (): Pairs => [
    ['_csrf', csrf],
    ['url', 'https://example.com/rules'],
    ['domain_id', t.defaultDomainId],
    ['rules[0][conditions][0][type]', 'country'],
    ['rules[0][conditions][0][key]', ''],
    ['rules[0][conditions][0][value]', 'fr'],
    ['rules[0][conditions][1][type]', 'query'],
    ['rules[0][conditions][1][key]', 'ref'],
    ['rules[0][conditions][1][value]', ''],
    ['rules[0][url]', 'https://example.com/fr'],
    ['rules[1][conditions][0][type]', 'device'],
    ['rules[1][conditions][0][key]', ''],
    ['rules[1][conditions][0][value]', 'mobile'],
    ['rules[1][url]', 'https://example.com/m'],
  ]

  it('shows one empty rule in a closed section on a new form', async () => {
    const res = await alice.get('/dashboard/links/new')
    expectStatus(res, 200)
    expect(res.body).toMatch(/<details class="option" id="section-rules">/)
    expect(selected(res.body, 'rules[0][conditions][0][type]')).toBe('')
    expect(inputValue(res.body, 'rules[0][url]')).toBe('')
    expect(selected(res.body, 'rules[1][conditions][0][type]')).toBeNull()
  })

  it('saves the rules as the API stores them; empty rows are left out', async () => {
    const res = await alice.post(
      '/dashboard/links/new',
      encode([...base(), ['rules[2][conditions][0][type]', ''], ['rules[2][url]', '']]),
    )
    expectStatus(res, 303)
    const id = Number(/\/dashboard\/links\/(\d+)\?/.exec(String(res.headers.location))![1])
    expect((await show(t, `links/${id}`)).rules).toEqual([
      {
        conditions: [
          { type: 'country', value: 'FR' },
          { type: 'query', key: 'ref' },
        ],
        url: 'https://example.com/fr',
      },
      { conditions: [{ type: 'device', value: 'mobile' }], url: 'https://example.com/m' },
    ])
    const edit = await alice.get(`/dashboard/links/${id}`)
    expect(selected(edit.body, 'rules[0][conditions][1][type]')).toBe('query')
    expect(inputValue(edit.body, 'rules[0][conditions][1][key]')).toBe('ref')
    expect(inputValue(edit.body, 'rules[1][url]')).toBe('https://example.com/m')
    expect(edit.body).toContain('<span class="option-state" id="state-rules">2 rules</span>')

    // Removing both rules and saving clears them.
    const editCsrf = csrfOf(edit.body)
    const cleared = await alice.post(
      `/dashboard/links/${id}`,
      encode([
        ['_csrf', editCsrf],
        ['url', 'https://example.com/rules'],
        ['rules[0][conditions][0][type]', ''],
        ['rules[0][url]', ''],
      ]),
    )
    expectStatus(cleared, 303)
    expect((await show(t, `links/${id}`)).rules).toEqual([])
  })

  it('adds, moves and removes rules and conditions without JavaScript, saving nothing', async () => {
    const before = (await t.call('GET', `${API}/links`)).json().meta.total as number
    const press = (value: string) =>
      alice.post('/dashboard/links/new', encode([...base(), ['_rules_action', value]]))

    const added = await press('add')
    expectStatus(added, 200)
    expect(added.body).toMatch(/<details class="option" id="section-rules" open/)
    expect(selected(added.body, 'rules[2][conditions][0][type]')).toBe('')
    expect(inputValue(added.body, 'rules[1][url]')).toBe('https://example.com/m')
    expect(added.body).not.toContain('The link was not saved')

    const up = await press('up_1')
    expect(selected(up.body, 'rules[0][conditions][0][type]')).toBe('device')
    expect(inputValue(up.body, 'rules[0][url]')).toBe('https://example.com/m')
    expect(inputValue(up.body, 'rules[1][conditions][0][value]')).toBe('fr')

    const down = await press('down_0')
    expect(inputValue(down.body, 'rules[0][url]')).toBe('https://example.com/m')

    const removed = await press('remove_0')
    expect(selected(removed.body, 'rules[0][conditions][0][type]')).toBe('device')
    expect(selected(removed.body, 'rules[1][conditions][0][type]')).toBeNull()

    const condition = await press('add_condition_1')
    expect(selected(condition.body, 'rules[1][conditions][1][type]')).toBe('')
    const dropped = await press('remove_condition_0_0')
    expect(selected(dropped.body, 'rules[0][conditions][0][type]')).toBe('query')
    expect(inputValue(dropped.body, 'rules[0][conditions][0][key]')).toBe('ref')

    expect((await t.call('GET', `${API}/links`)).json().meta.total).toBe(before)
  })

  it('answers htmx with the section alone', async () => {
    const cookie = [...alice.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const res = await t.app.inject({
      method: 'POST',
      url: '/dashboard/links/new',
      headers: {
        host: 'short.test',
        cookie,
        'hx-request': 'true',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: encode([...base(), ['_rules_action', 'add'], ['_rules_action', 'add']]),
    })
    expectStatus(res, 200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers.vary).toBe('HX-Request')
    expect(res.body).toMatch(/^<div class="rules" id="rules">/)
    expect(res.body).not.toContain('<style')
    expect(selected(res.body, 'rules[2][conditions][0][type]')).toBe('')
    expect(selected(res.body, 'rules[3][conditions][0][type]')).toBeNull()
    expect(res.body).toContain('hx-post="/dashboard/links/new"')
  })

  it('refuses a bad rule with its message next to the field, keeping every value', async () => {
    const pairs = base().map(([k, v]): [string, string | number] =>
      k === 'rules[1][conditions][0][value]'
        ? [k, 'watch']
        : k === 'rules[0][url]'
          ? [k, 'ftp://x']
          : [k, v],
    )
    const res = await alice.post('/dashboard/links/new', encode(pairs))
    expectStatus(res, 422)
    expect(res.body).toMatch(/<details class="option" id="section-rules" open/)
    expect(res.body).toContain(
      '<p class="field-error" id="rules-0-url-error">“Then send to” of rule 1 must be a web address, such as https://example.org/page.</p>',
    )
    expect(res.body).toContain(
      '<p class="field-error" id="rules-1-conditions-0-value-error">The selected rules.1.conditions.0.value is invalid.</p>',
    )
    expect(inputValue(res.body, 'rules[1][conditions][0][value]')).toBe('watch')
    expect(inputValue(res.body, 'rules[0][url]')).toBe('ftp://x')
  })
})
