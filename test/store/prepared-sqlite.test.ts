/**
 * Prepared reads on an SQLite file run on the read-only connection and build each row with one
 * object literal made from the statement's columns (db/row-objects.ts): the rows are the ones the
 * query builder returns, field for field.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'
import { prepared } from '../../src/db/prepared.js'

let dir: string
let db: Db
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slink-prepared-'))
  db = openDatabase({ kind: 'sqlite', path: join(dir, 'prepared.db') })
  await migrate(db)
  const now = Date.now()
  for (const [name, email] of [
    ['Ann', 'ann@example.com'],
    ['Bo', 'bo@example.com'],
  ]) {
    await sql`INSERT INTO users (name, email, timezone, created_at, updated_at, role)
      VALUES (${name}, ${email}, 'UTC', ${now}, ${now}, 'user')`.execute(db.kysely)
  }
})
afterAll(async () => {
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

it('returns the rows the query builder returns, each field with its value and type', async () => {
  expect(db.reader()).not.toBeNull()
  const byEmail = prepared(
    () => db,
    1,
    (email: string) => db.kysely.selectFrom('users').selectAll().where('email', '=', email),
  )
  const built = await db.kysely
    .selectFrom('users')
    .selectAll()
    .where('email', '=', 'bo@example.com')
    .execute()
  const read = await byEmail('bo@example.com')
  expect(read).toEqual(built)
  expect(Object.keys(read[0]!)).toEqual(Object.keys(built[0]!))
  expect(Object.getPrototypeOf(read[0])).toBe(Object.prototype)
  expect(await byEmail('nobody@example.com')).toEqual([])
})

it('gives a name taken by two columns the later column, as the driver does', async () => {
  const pair = prepared(
    () => db,
    0,
    () =>
      db.kysely
        .selectFrom('users as a')
        .innerJoin('users as b', (join) => join.on('b.id', '=', 2))
        .select(['a.name', 'b.name'])
        .where('a.id', '=', 1),
  )
  expect(await pair()).toEqual([{ name: 'Bo' }])
  expect(
    db
      .sqlite!.prepare('SELECT a.name, b.name FROM users a, users b WHERE a.id = 1 AND b.id = 2')
      .all(),
  ).toEqual([{ name: 'Bo' }])
})

it('keeps a column named __proto__ as a field, not the row prototype', async () => {
  const hostile = prepared(
    () => db,
    0,
    () =>
      db.kysely
        .selectFrom('users')
        .select([sql<null>`NULL`.as('__proto__'), 'name'])
        .where('id', '=', 1),
  )
  const [row] = await hostile()
  expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
  expect(Object.getOwnPropertyNames(row)).toEqual(['__proto__', 'name'])
  expect(Object.getOwnPropertyDescriptor(row, '__proto__')!.value).toBeNull()
  expect(row!.name).toBe('Ann')
})
