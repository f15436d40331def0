/**
 * The `text` scenario: a case-insensitive search and a text sort over every link of a user, as
 * the store runs them on SQLite (db/sql-helpers.ts), beside the same statements with `lower()`
 * applied to every row, the way they were written before. No index serves either: these are
 * the searches with terms of one or two characters, and the sorts by alias, URL or title.
 */
import { sql, type RawBuilder } from 'kysely'
import { openDatabase } from '../src/db/connect.js'
import { containsInsensitive, textSortKey } from '../src/db/sql-helpers.js'
import { median } from './redirect.js'

export interface TextRow {
  name: string
  /** Milliseconds per statement, median of the rounds: as the store runs it, and lowering all. */
  store: number
  lowered: number
  /** Both found the same rows (a count, or the first page's ids). */
  same: boolean
}

type Column = 'alias' | 'url' | 'title'

const searches: [Column, string][] = [
  ['alias', 'b1'],
  ['url', 'g/1'],
  ['title', 'page 1'],
]
const sorts: Column[] = ['alias', 'title']

export async function textBench(path: string, rounds: number): Promise<TextRow[]> {
  const db = openDatabase({ kind: 'sqlite', path })
  const timed = async (run: () => Promise<unknown>) => {
    const times: number[] = []
    let answer: unknown
    for (let i = 0; i <= rounds; i++) {
      const started = performance.now()
      answer = await run()
      // The first run warms the page cache and the statement; it is not counted.
      if (i > 0) times.push(performance.now() - started)
    }
    return { ms: median(times), answer: JSON.stringify(answer) }
  }
  const count = (condition: RawBuilder<boolean>) => () =>
    db.kysely
      .selectFrom('links')
      .select(sql<number>`count(*)`.as('n'))
      .where('user_id', '=', 1)
      .where(condition)
      .executeTakeFirst()
  const firstPage = (key: RawBuilder<string>) => () =>
    db.kysely
      .selectFrom('links')
      .select('id')
      .where('user_id', '=', 1)
      .orderBy(key)
      .orderBy('id')
      .limit(25)
      .execute()
  const rows: TextRow[] = []
  try {
    for (const [column, term] of searches) {
      const store = await timed(count(containsInsensitive(column, term, 'sqlite')))
      // The terms hold no `%`, `_` or backslash: the pattern needs no escapes.
      const pattern = `%${term.toLowerCase()}%`
      const lowered = await timed(
        count(sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`),
      )
      rows.push(row(`count: ${column} holds "${term}"`, store, lowered))
    }
    for (const column of sorts) {
      const store = await timed(firstPage(textSortKey(column, 'sqlite')))
      const lowered = await timed(firstPage(sql<string>`lower(coalesce(${sql.ref(column)}, ''))`))
      rows.push(row(`first 25 by ${column}`, store, lowered))
    }
  } finally {
    await db.close()
  }
  return rows
}

function row(
  name: string,
  store: { ms: number; answer: string },
  lowered: { ms: number; answer: string },
): TextRow {
  return { name, store: store.ms, lowered: lowered.ms, same: store.answer === lowered.answer }
}

export function printText(count: number, rows: TextRow[]): void {
  console.log(`\ntext comparisons on SQLite, ${count.toLocaleString('en-US')} links (one user)`)
  console.log('  statement                           as stored   lower() on every row   same rows')
  for (const r of rows) {
    const ms = (value: number) => `${value.toFixed(1)} ms`
    console.log(
      `  ${r.name.padEnd(34)} ${ms(r.store).padStart(10)} ${ms(r.lowered).padStart(22)}   ${r.same ? 'yes' : 'NO'}`,
    )
  }
  console.log(`
How to read this: SQLite's lower() here is a JavaScript function (Unicode-aware), called for
every row these statements read. The store compares and sorts ASCII values with SQLite's own
LIKE and NOCASE, which fold their letters the same way, and lowers only the others.`)
}
