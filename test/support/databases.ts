/**
 * The databases store tests run on: a fresh SQLite file always; PostgreSQL when reachable
 * (a fresh schema per suite). Without PostgreSQL the suite skips with a reason, except under
 * CI=true, where a missing service fails.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'

export interface TestDatabase {
  db: Db
  drop(): Promise<void>
}

export async function freshSqlite(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'slink-store-'))
  const db = openDatabase({ kind: 'sqlite', path: join(dir, 'store.db') })
  await migrate(db)
  return {
    db,
    drop: async () => {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
