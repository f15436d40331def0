/**
 * Benchmark databases: a fresh SQLite file with its schema, one user, the domain `127.0.0.1`
 * (what the load generator sends as Host) and `count` links `b0`, `b1`, … inserted in bulk.
 */
import SQLite from 'better-sqlite3'
import { openDatabase } from '../src/db/connect.js'
import { migrate } from '../src/db/migrate.js'

export async function seedDatabase(path: string, count: number): Promise<void> {
  const db = openDatabase({ kind: 'sqlite', path })
  await migrate(db)
  await db.close()
  const raw = new SQLite(path)
  const now = Date.now()
  raw
    .prepare(
      "INSERT INTO users (name, email, timezone, created_at, updated_at) VALUES ('Bench', 'bench@localhost', 'UTC', ?, ?)",
    )
    .run(now, now)
  raw
    .prepare(
      "INSERT INTO domains (user_id, name, url, created_at, updated_at) VALUES (NULL, '127.0.0.1', 'http://127.0.0.1', ?, ?)",
    )
    .run(now, now)
  const insert = raw.prepare(
    'INSERT INTO links (user_id, domain_id, alias, url, title_locked, target_type, disabled, privacy, clicks, created_at, updated_at) ' +
      'VALUES (1, 1, ?, ?, 0, 0, 0, 0, 0, ?, ?)',
  )
  raw.transaction(() => {
    for (let i = 0; i < count; i++)
      insert.run(`b${i}`, `https://example.com/landing/${i}?src=bench`, now, now)
  })()
  raw.close()
}

/** Total clicks stored (links.clicks) and click-log rows, read after the service has stopped. */
export function storedClicks(path: string): { clicks: number; rows: number } {
  const raw = new SQLite(path, { readonly: true })
  const clicks = Number(raw.prepare('SELECT coalesce(sum(clicks), 0) FROM links').pluck().get())
  const rows = Number(raw.prepare('SELECT count(*) FROM clicks').pluck().get())
  raw.close()
  return { clicks, rows }
}
