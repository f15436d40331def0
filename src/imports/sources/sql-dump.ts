/**
 * The rows a MySQL dump inserts into the tables a reader asks for, read statement by statement
 * as the text arrives: `INSERT` (or `REPLACE`) `[IGNORE] INTO name [(columns)] VALUES (…), (…);`
 * with one or many rows, and `CREATE TABLE` for a table's column order and character set (an
 * `INSERT` without a column list takes the columns from it). Every other statement is skipped
 * token by token, never executed. A row over MAX_TUPLE characters comes out with a problem in
 * its place; memory holds one row at a time.
 */
import { TextDecoder } from 'node:util'
import { MAX_TOKEN, SqlLexer, type SqlToken } from './sql-tokens.js'

export const MAX_TUPLE = 1024 * 1024
/** Tokens of a statement's head (before VALUES) or of a CREATE TABLE, at most. */
const MAX_HEAD = 10_000

export interface SqlRow {
  table: string
  /** The INSERT's column list, else the CREATE TABLE's columns, else null. */
  columns: string[] | null
  values: (string | null)[]
  problem: string | null
}

interface Table {
  columns: string[]
  charset: string
  /** Columns with their own character set. */
  charsets: Map<string, string>
}

const NOT_COLUMNS = new Set([
  'primary',
  'key',
  'unique',
  'index',
  'constraint',
  'fulltext',
  'spatial',
  'foreign',
  'check',
])

/** The text of hex digits in a MySQL character set (latin1 is Windows-1252 in MySQL). */
function fromHex(hex: string, charset: string): string {
  const bytes = Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex')
  const latin = /^(latin1|cp1252)$/i.test(charset)
  return new TextDecoder(latin ? 'windows-1252' : 'utf-8').decode(bytes)
}

const word = (t: SqlToken | undefined, w: string) =>
  t !== undefined && t.type === 'word' && t.value.toLowerCase() === w
const isName = (t: SqlToken | undefined) =>
  t !== undefined && (t.type === 'word' || t.type === 'ident' || t.type === 'double')
const punct = (t: SqlToken | undefined, p: string) =>
  t !== undefined && t.type === 'punct' && t.value === p

/** The character set `CHARSET x`, `CHARACTER SET x` or `CHARSET=x` names among the tokens. */
function charsetIn(tokens: SqlToken[]): string | null {
  const words = tokens.map((t) => (t.value ?? '').toLowerCase())
  for (let i = 0; i < words.length; i++) {
    let next = -1
    if (words[i] === 'charset') next = i + 1
    else if (words[i] === 'character' && words[i + 1] === 'set') next = i + 2
    if (next === -1) continue
    if (words[next] === '=') next++
    const found = words[next]
    if (found !== undefined && /^[a-z0-9_]+$/.test(found)) return found
  }
  return null
}

/** A (possibly qualified) name from `i`: its last part, and the index after it. */
function nameAt(head: SqlToken[], i: number): { name: string; next: number } | null {
  if (!isName(head[i])) return null
  let name = head[i]!.value ?? ''
  let next = i + 1
  while (punct(head[next], '.') && isName(head[next + 1])) {
    name = head[next + 1]!.value ?? ''
    next += 2
  }
  return { name, next }
}

/** `(a, b, c)` from `i`: the names, or null when it is not such a list. */
function namesAt(head: SqlToken[], i: number): string[] | null {
  if (!punct(head[i], '(')) return null
  const names: string[] = []
  for (let j = i + 1; j < head.length; j += 2) {
    if (!isName(head[j])) return null
    names.push((head[j]!.value ?? '').toLowerCase())
    if (punct(head[j + 1], ')')) return names
    if (!punct(head[j + 1], ',')) return null
  }
  return null
}

export async function* sqlRows(
  text: AsyncIterable<string>,
  wanted: (table: string) => boolean,
): AsyncGenerator<SqlRow> {
  const lexer = new SqlLexer()
  const tables = new Map<string, Table>()
  let mode: 'head' | 'skip' | 'create' | 'values' = 'head'
  let head: SqlToken[] = []
  // Characters held in `head` or a CREATE TABLE's tokens: past MAX_TUPLE, the statement is skipped.
  let held = 0
  const hold = (t: SqlToken) => (held += t.value?.length ?? 0) > MAX_TUPLE
  // An INSERT's table and columns, and the row being read.
  let table = ''
  let columns: string[] | null = null
  let charset = 'utf8mb4'
  let charsets = new Map<string, string>()
  let tuple: (string | null)[] | null = null
  let size = 0
  let tooLong = false
  let depth = 0
  let introducer: string | null = null
  let negative = false
  // A CREATE TABLE being read.
  let create: {
    name: string
    columns: string[]
    charsets: Map<string, string>
    element: SqlToken[]
    options: SqlToken[]
  } | null = null

  const startInsert = (): boolean => {
    let i = 1
    while (
      ['low_priority', 'delayed', 'high_priority', 'ignore', 'into'].some((w) => word(head[i], w))
    )
      i++
    const found = nameAt(head, i)
    if (found === null || !wanted(found.name)) return false
    table = found.name
    const known = tables.get(found.name.toLowerCase())
    columns = namesAt(head, found.next) ?? known?.columns ?? null
    charset = known?.charset ?? 'utf8mb4'
    charsets = known?.charsets ?? new Map()
    return true
  }

  const value = (v: string | null) => {
    if (tuple === null || depth !== 1) return
    if (v !== null) size += v.length
    if (size > MAX_TUPLE) tooLong = true
    if (!tooLong) tuple.push(v !== null && negative ? `-${v}` : v)
    negative = false
  }

  function* onValues(t: SqlToken): Generator<SqlRow> {
    if (tuple === null) {
      if (punct(t, '(')) {
        tuple = []
        size = 0
        tooLong = false
        depth = 1
      } else if (punct(t, ';')) mode = 'head'
      else if (!punct(t, ',')) mode = 'skip' // ON DUPLICATE KEY UPDATE …
      return
    }
    if (t.type === 'punct') {
      if (t.value === '(') depth++
      else if (t.value === ')' && --depth === 0) {
        const row = tuple
        tuple = null
        yield {
          table,
          columns,
          values: tooLong ? [] : row,
          problem: tooLong ? `The row is longer than ${MAX_TUPLE} characters.` : null,
        }
      } else if (t.value === '-' && depth === 1) negative = true
      return
    }
    if (t.type === 'word') {
      const w = t.value.toLowerCase()
      if (w.startsWith('_')) introducer = w.slice(1)
      else if (w === 'null') value(null)
      else if (w === 'true' || w === 'false') value(w === 'true' ? '1' : '0')
      else value(t.value)
      return
    }
    if (t.value === null) {
      tooLong = true
      introducer = null
      return
    }
    const column = columns?.[tuple.length]
    const own = column === undefined ? undefined : charsets.get(column)
    if (t.type === 'hex') value(fromHex(t.value, introducer ?? own ?? charset))
    else value(t.value)
    introducer = null
  }

  const onCreate = (t: SqlToken) => {
    const c = create!
    if (depth === 0) {
      if (punct(t, ';')) {
        tables.set(c.name.toLowerCase(), {
          columns: c.columns,
          charset: charsetIn(c.options) ?? 'utf8mb4',
          charsets: c.charsets,
        })
        create = null
        mode = 'head'
      } else if (hold(t)) {
        create = null
        mode = 'skip'
      } else if (c.options.length < MAX_HEAD) c.options.push(t)
      return
    }
    if (hold(t)) {
      create = null
      mode = 'skip'
      return
    }
    if (punct(t, '(')) depth++
    else if (punct(t, ')')) depth--
    if (depth === 0 || (depth === 1 && punct(t, ','))) {
      // One element ends: a column (its name first, maybe its own character set) or a key.
      const [first] = c.element
      const name = (first?.value ?? '').toLowerCase()
      if (
        first !== undefined &&
        isName(first) &&
        !NOT_COLUMNS.has(name) &&
        c.columns.length < MAX_HEAD
      ) {
        c.columns.push(name)
        const own = charsetIn(c.element)
        if (own !== null) c.charsets.set(name, own)
      }
      c.element = []
    } else if (c.element.length < MAX_HEAD) c.element.push(t)
  }

  function* onToken(t: SqlToken): Generator<SqlRow> {
    if (mode === 'values') {
      yield* onValues(t)
      return
    }
    if (mode === 'create') {
      onCreate(t)
      return
    }
    if (mode === 'skip') {
      if (punct(t, ';')) mode = 'head'
      return
    }
    if (punct(t, ';')) {
      head = []
      held = 0
      return
    }
    if (head.length === 0) held = 0
    head.push(t)
    const first = head[0]!
    if (
      (word(first, 'insert') || word(first, 'replace')) &&
      (word(t, 'values') || word(t, 'value'))
    ) {
      mode = startInsert() ? 'values' : 'skip'
      tuple = null
      head = []
      return
    }
    if (word(first, 'create') && punct(t, '(') && head.length > 2) {
      let i = 1
      while (word(head[i], 'temporary')) i++
      if (!word(head[i], 'table')) return
      i++
      if (word(head[i], 'if') && word(head[i + 1], 'not') && word(head[i + 2], 'exists')) i += 3
      const found = nameAt(head, i)
      head = []
      if (found === null || !wanted(found.name)) {
        mode = 'skip'
        return
      }
      create = { name: found.name, columns: [], charsets: new Map(), element: [], options: [] }
      depth = 1
      mode = 'create'
      return
    }
    if (head.length > MAX_HEAD || hold(t)) {
      head = []
      mode = 'skip'
    }
  }

  for await (const chunk of text) for (const t of lexer.push(chunk)) yield* onToken(t)
  for (const t of lexer.end()) yield* onToken(t)
  // A dump cut inside a row: that row, with its problem.
  const cut = (mode as string) === 'values' && (tuple as unknown) !== null
  if (cut) yield { table, columns, values: [], problem: 'The dump ends inside this row.' }
}

export { MAX_TOKEN }
