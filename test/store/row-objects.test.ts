/**
 * Every read of an SQLite file returns its rows as the objects better-sqlite3 itself builds (the
 * same keys in the same order, the same values and types, a plain prototype), whether it goes
 * through the query builder, a prepared read or a stream, though they are built from the
 * statements' raw arrays (db/row-objects.ts). One difference, on purpose: a column named
 * `__proto__` is a field of its own, where the driver's object takes the value as its prototype.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { CompiledQuery, sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'
import { prepared } from '../../src/db/prepared.js'
import { allRows, iterateRows } from '../../src/db/row-objects.js'
import { cachingStatements } from '../../src/db/statement-cache.js'

let dir: string
let path: string
let db: Db
/** Another connection to the same file, whose statements build rows as the driver does. */
let plain: SQLite.Database

const SHAPES = [
  'SELECT * FROM samples ORDER BY id',
  'SELECT id, label, id AS again, label AS id FROM samples ORDER BY 1',
  'SELECT a.label, b.label FROM samples a, samples b WHERE a.id = 1 AND b.id = 2',
  'SELECT count(*) AS n, sum(weight) AS total FROM samples',
  'SELECT label FROM samples WHERE id < 0',
  'SELECT 1 AS "constructor", 2 AS "toString", 3 AS "a b", 4 AS "é", 5 AS "1" FROM samples',
]

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slink-row-objects-'))
  path = join(dir, 'rows.db')
  db = openDatabase({ kind: 'sqlite', path })
  await migrate(db)
  await sql`CREATE TABLE samples (id INTEGER PRIMARY KEY, label TEXT, weight REAL, data BLOB, big INTEGER)`.execute(
    db.kysely,
  )
  await sql`INSERT INTO samples VALUES
    (1, 'one', 1.5, x'00ff', 9007199254740991),
    (2, 'two "quoted"', NULL, NULL, -3),
    (3, NULL, 0.25, x'', 0)`.execute(db.kysely)
  plain = new SQLite(path, { readonly: true })
})

afterAll(async () => {
  plain.close()
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

function expectSameRows(got: unknown[], expected: unknown[]): void {
  expect(got).toEqual(expected)
  expect(got.map((row) => Object.keys(row as object))).toEqual(
    expected.map((row) => Object.keys(row as object)),
  )
  for (const row of got) expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
}

it('returns through the query builder the rows the driver builds, key for key', async () => {
  for (const text of SHAPES) {
    const expected = plain.prepare(text).all()
    // Twice: the first run prepares and shapes the statement, the second meets it cached.
    for (let run = 0; run < 2; run++) {
      const { rows } = await db.kysely.executeQuery(CompiledQuery.raw(text, []))
      expectSameRows(rows, expected)
    }
  }
  const [first] = (await db.kysely.executeQuery(CompiledQuery.raw(SHAPES[0]!, []))).rows as {
    data: Buffer
    big: number
  }[]
  expect(Buffer.isBuffer(first!.data)).toBe(true)
  expect(first!.big).toBe(Number.MAX_SAFE_INTEGER)
})

it('returns the same rows from a prepared read and from a stream', async () => {
  for (const text of SHAPES) {
    const expected = plain.prepare(text).all()
    const read = prepared(
      () => db,
      0,
      () => ({ compile: () => CompiledQuery.raw(text, []) }),
    )
    expectSameRows(await read(), expected)
    const streamed: unknown[] = []
    for await (const { rows } of db.kysely.getExecutor().stream(CompiledQuery.raw(text, []), 1)) {
      streamed.push(...rows)
    }
    expectSameRows(streamed, expected)
  }
})

it('keeps a column named __proto__ as a field of its own, whatever its value', async () => {
  const text = `SELECT CASE id WHEN 1 THEN NULL WHEN 2 THEN x'00ff' ELSE 'text' END AS "__proto__",
    label FROM samples WHERE id <= 3 ORDER BY id`
  // The driver's objects take the value as their prototype.
  expect(Object.getPrototypeOf(plain.prepare(text).get())).toBeNull()
  const read = prepared(
    () => db,
    0,
    () => ({ compile: () => CompiledQuery.raw(text, []) }),
  )
  const streamed: unknown[] = []
  for await (const { rows } of db.kysely.getExecutor().stream(CompiledQuery.raw(text, []), 1)) {
    streamed.push(...rows)
  }
  const built = (await db.kysely.executeQuery(CompiledQuery.raw(text, []))).rows
  for (const rows of [built, await read(), streamed]) {
    expect(rows).toHaveLength(3)
    rows.forEach((row, i) => {
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
      expect(Object.getOwnPropertyNames(row)).toEqual(['__proto__', 'label'])
      const value = Object.getOwnPropertyDescriptor(row, '__proto__')!.value as unknown
      expect(value).toEqual([null, Buffer.from([0, 255]), 'text'][i])
    })
  }
})

it('builds the rows of a statement prepared afresh while the cached one is busy', () => {
  const text = SHAPES[0]!
  const expected = plain.prepare(text).all()
  const statements = cachingStatements(plain)
  const cached = statements.prepare(text) as unknown as SQLite.Statement
  const streamed: unknown[] = []
  for (const row of iterateRows(cached, [])) {
    streamed.push(row)
    // The cached statement is busy with the iteration: this read gets a statement of its own.
    const fresh = statements.prepare(text) as unknown as SQLite.Statement
    expect(fresh).not.toBe(cached)
    expectSameRows(allRows(fresh, []), expected)
  }
  expectSameRows(streamed, expected)
  expectSameRows(allRows(statements.prepare(text) as unknown as SQLite.Statement, []), expected)
})

it('still runs writes and reports what they changed', async () => {
  const result = await db.kysely.executeQuery(
    CompiledQuery.raw("UPDATE samples SET label = 'uno' WHERE id = 1", []),
  )
  expect(result.numAffectedRows).toBe(1n)
  expect(result.rows).toEqual([])
  const { rows } = await db.kysely.executeQuery(
    CompiledQuery.raw('INSERT INTO samples (label) VALUES (?) RETURNING id, label', ['four']),
  )
  expectSameRows(rows, [{ id: 4, label: 'four' }])
})
