/**
 * Any search term reaches the database as data, never as SQL or index syntax: quotes,
 * backslashes, NUL, FTS5's operators (`*`, `"`, `NEAR`, `AND`/`OR`/`NOT`, parentheses, `:`),
 * LIKE's wildcards, emoji, and terms of 1, 2 and 100 characters, through every `search_by`,
 * answer 200 with exactly the links whose field holds the term, case-insensitively (a term with
 * NUL: none, as no stored text holds one). A term longer than the API takes is a 422.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { API, createLink, expectStatus, validation, type Rec } from './helpers.js'

const LONG_TITLE =
  'Long title: the quick brown fox jumps over the lazy dog, "twice", with 100% of (its) * energy 🦊 and more'

const FIXTURES = [
  { alias: 'quote-1', url: "https://q.example/it's", title: `Quote '"\\ mark` },
  { alias: 'star_2', url: 'https://s.example/a*b(c)', title: '5 * stars (NEAR) AND more' },
  { alias: 'or-not-3', url: 'https://o.example/or/not', title: 'this OR that, NOT NEAR(a b)' },
  { alias: 'Emoji-4', url: 'https://e.example/party', title: 'Party 🎉 time at the CAFÉ' },
  { alias: 'pct_5', url: 'https://p.example/100%25_off', title: '100% off_sale: {alias} ^x' },
  { alias: 'long-6', url: 'https://l.example/long', title: LONG_TITLE },
  { alias: 'plain-7', url: 'https://plain.example/', title: null },
]

/** The terms, and whether some link must be found by them (through some `search_by`). */
const TERMS: [string, boolean][] = [
  [`'"\\\u0000`, false],
  [`'"\\`, true],
  [`'`, true],
  [`"`, true],
  [`\\`, true],
  [`""`, false],
  [`"twice"`, true],
  [`*`, true],
  [`a*b`, true],
  [`"*"`, false],
  [`NEAR`, true],
  [`near(a b)`, true],
  [`AND`, true],
  [`OR`, true],
  [`or/NOT`, true],
  [`NOT`, true],
  [`a OR b`, false],
  [`(`, true],
  [`)`, true],
  [`(c)`, true],
  [`(its)`, true],
  [`:`, true],
  [`sale:`, true],
  [`{alias}`, true],
  [`^x`, true],
  [`%`, true],
  [`_`, true],
  [`0% OFF_`, true],
  [`25_`, true],
  [`🎉`, true],
  [`🎉 t`, true],
  [`🦊 and`, true],
  [`café`, true],
  [`x`, true],
  [`Q`, true],
  [`qu`, true],
  [`7`, true],
  [LONG_TITLE.slice(3, 103).toUpperCase(), true],
  [`${LONG_TITLE.slice(3, 102)}!`, false],
]

let t: TestApp
let links: Rec[]

beforeAll(async () => {
  t = await createTestApp()
  for (const fixture of FIXTURES) {
    const { title, ...rest } = fixture
    await createLink(t, title === null ? rest : { ...rest, title })
  }
  const res = await t.call('GET', `${API}/links?per_page=100&sort_by=id&sort=asc`)
  expectStatus(res, 200)
  links = (res.json() as { data: Rec[] }).data
  expect(links.map((l) => l.alias)).toEqual(FIXTURES.map((f) => f.alias))
})
afterAll(() => t.close())

/** The links whose field holds the term, case-insensitively, as the API promises. */
function holding(field: 'alias' | 'url' | 'title', term: string): number[] {
  if (term.includes('\u0000')) return []
  const wanted = term.toLowerCase()
  return links
    .filter((l) => {
      const value = l[field]
      return typeof value === 'string' && value.toLowerCase().includes(wanted)
    })
    .map((l) => l.id)
}

async function found(field: string, term: string): Promise<number[]> {
  const query = new URLSearchParams({
    search: term,
    search_by: field,
    sort_by: 'id',
    sort: 'asc',
    per_page: '100',
  })
  const res = await t.call('GET', `${API}/links?${query.toString()}`)
  expectStatus(res, 200)
  const body = res.json() as { data: Rec[]; meta: { total: number } }
  expect(body.meta.total).toBe(body.data.length)
  return body.data.map((l) => l.id)
}

describe('search terms that are SQL or FTS5 syntax', () => {
  it.each(TERMS)(
    'finds exactly the links holding %j by alias, URL and title',
    async (term, some) => {
      let any = 0
      for (const field of ['alias', 'url', 'title'] as const) {
        const expected = holding(field, term)
        any += expected.length
        expect(await found(field, term), `${field} ${JSON.stringify(term)}`).toEqual(expected)
      }
      expect(any > 0).toBe(some)
    },
  )

  it('answers the term that once reached SQLite as SQL text with 200 and no link', async () => {
    const res = await t.call('GET', `${API}/links?search=%27%22%5C%00&search_by=title`)
    expectStatus(res, 200)
    expect(res.json()).toMatchObject({ data: [], meta: { total: 0 } })
  })

  it('still refuses a term longer than 255 characters', async () => {
    const res = await t.call('GET', `${API}/links?search=${'x'.repeat(256)}&search_by=title`)
    expectStatus(res, 422)
    expect(res.json()).toEqual(
      validation({ search: ['The search field must not be greater than 255 characters.'] }),
    )
  })
})
