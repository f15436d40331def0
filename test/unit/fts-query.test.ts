/**
 * `ftsQuery` (links/search-condition.ts) turns any search term into one FTS5 phrase on one
 * column: FTS5 parses every such query, reads none of the term as syntax, and with the trigram
 * tokenizer matches exactly the texts that hold the term (three characters or more),
 * case-insensitively.
 */
import SQLite from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { ftsQuery } from '../../src/links/search-condition.js'

const TEXTS = [
  `Quote '"\\ mark`,
  '5 * stars (NEAR) AND more',
  'this OR that, NOT NEAR(a b)',
  'col: url : "x" {title}',
  'Party 🎉 time at the CAFÉ',
  'plain',
]

const db = new SQLite(':memory:')
db.exec("CREATE VIRTUAL TABLE t USING fts5(alias, title, tokenize='trigram')")
const insert = db.prepare('INSERT INTO t (rowid, alias, title) VALUES (?, ?, ?)')
TEXTS.forEach((text, i) => insert.run(i + 1, 'plain', text))
afterAll(() => db.close())

const match = db.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid').pluck()

describe('ftsQuery', () => {
  it.each([
    ['abc', 'title : "abc"'],
    ['a"b', 'title : "a""b"'],
    ['"', 'title : """"'],
    ['NEAR(a b)', 'title : "NEAR(a b)"'],
    ['\'"\\', 'title : "\'""\\"'],
  ])('quotes %j as one phrase', (term, query) => {
    expect(ftsQuery('title', term)).toBe(query)
  })

  it.each([
    `'"\\`,
    `"x"`,
    `" OR "`,
    '* s',
    'NEAR',
    'near(a',
    'AND more',
    'OR that',
    'NOT NEAR',
    '(NEAR)',
    'url : "',
    '{title}',
    '🎉 t',
    'café',
    'PLAIN',
    'ain',
    'nothing here',
  ])('finds exactly the texts that hold %j', (term) => {
    const holding = TEXTS.flatMap((text, i) =>
      text.toLowerCase().includes(term.toLowerCase()) ? [i + 1] : [],
    )
    expect(match.all(ftsQuery('title', term))).toEqual(holding)
  })

  it('searches the named column only', () => {
    expect(match.all(ftsQuery('alias', 'plain'))).toEqual([1, 2, 3, 4, 5, 6])
    expect(match.all(ftsQuery('title', 'plain'))).toEqual([6])
  })

  it('refuses a term holding U+0000, which FTS5 cannot read', () => {
    expect(() => ftsQuery('title', 'a\u0000b')).toThrow(RangeError)
  })
})
