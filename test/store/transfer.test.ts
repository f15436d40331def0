/**
 * The transfer's table list against the real schema on both engines: the export carries
 * exactly the tables the migrations create (a new table cannot be forgotten silently), parents
 * before children, every column of a kind a dump can carry, and an id sequence for every table
 * with an id.
 */
import { Readable } from 'node:stream'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { liveTables, referencedTables } from '../../src/transfer/catalog.js'
import { dumpLines } from '../../src/transfer/dump-lines.js'
import { planExport } from '../../src/transfer/source-check.js'
import { TABLE_ORDER, TABLES } from '../../src/transfer/tables.js'
import {
  freshPostgres,
  freshSqlite,
  postgresCheck,
  type TestDatabase,
} from '../support/databases.js'
import { dumpOf } from '../support/dumps.js'

const postgres = await postgresCheck()

describe.each([
  ['SQLite', freshSqlite, true],
  ['PostgreSQL', freshPostgres, postgres.ok],
] as const)('the transfer table list on %s', (_, fresh, available) => {
  let t: TestDatabase
  beforeEach(async () => {
    if (available) t = await fresh()
  })
  afterEach(() => (available ? t.drop() : undefined))

  it.skipIf(!available)('names exactly the tables the migrated schema has', async () => {
    const live = (await liveTables(t.db)).map((table) => table.name)
    expect([...live].sort()).toEqual([...TABLE_ORDER].sort())
  })

  it.skipIf(!available)(
    'puts every referenced table before the tables referencing it',
    async () => {
      const references: string[] = []
      for (const [position, name] of TABLE_ORDER.entries()) {
        for (const parent of await referencedTables(t.db, name)) {
          if (parent === name) continue
          references.push(`${name} → ${parent}`)
          expect(TABLE_ORDER.indexOf(parent as never), references.at(-1)).toBeLessThan(position)
        }
      }
      expect(references).toEqual(expect.arrayContaining(['links → users', 'link_pixels → pixels']))
    },
  )

  it.skipIf(!available)(
    'plans every column, and an id order and sequence for tables with an id',
    async () => {
      const { tables } = await planExport(t.db)
      expect(tables.map((table) => table.name)).toEqual(TABLE_ORDER)
      for (const table of tables) {
        expect(table.kinds.length, table.name).toBe(table.columns.length)
        const hasId = table.columns.includes('id')
        expect(TABLES[table.name].orderBy, table.name).toBe(hasId ? 'id' : null)
        expect(table.sequence, table.name).toBe(hasId ? 'id' : null)
      }
    },
  )

  it.skipIf(!available)('refuses a table that is not listed', async () => {
    await sql`create table notes (body text)`.execute(t.db.kysely)
    await expect(planExport(t.db)).rejects.toThrow(
      "table notes is not in the export's table list (src/transfer/tables.ts): it would be left behind",
    )
  })

  it.skipIf(!available)(
    'exports an empty database as a header, empty sections and an end line',
    async () => {
      const dump = await dumpOf(t.db)
      const lines: string[] = []
      for await (const batch of dumpLines(Readable.from([Buffer.from(dump)]))) lines.push(...batch)
      expect(lines.slice(1, -1)).toEqual(TABLE_ORDER.map((name) => JSON.stringify({ table: name })))
      expect(JSON.parse(lines.at(-1)!)).toMatchObject({ end: true, rows: 0 })
    },
  )
})
