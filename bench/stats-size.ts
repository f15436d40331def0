/**
 * What the statistics cost on disk: the SQLite file's size after a checkpoint (nothing left in
 * the write-ahead log), and the bytes of every table and index from SQLite's `dbstat` table.
 */
import { statSync } from 'node:fs'
import type SQLite from 'better-sqlite3'

export interface SizeSnapshot {
  fileBytes: number
  /** Bytes per table or index name. */
  objects: Map<string, number>
}

export function sizeOf(db: SQLite.Database, path: string): SizeSnapshot {
  db.pragma('wal_checkpoint(TRUNCATE)')
  const rows = db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all() as {
    name: string
    bytes: number
  }[]
  return {
    fileBytes: statSync(path).size,
    objects: new Map(rows.map((r) => [r.name, r.bytes])),
  }
}

/** Growth per click between two snapshots: the whole file, and each object that grew. */
export function growthPerClick(
  before: SizeSnapshot,
  after: SizeSnapshot,
  clicks: number,
): { file: number; objects: [string, number][] } {
  const objects = [...after.objects]
    .map(([name, bytes]): [string, number] => [
      name,
      (bytes - (before.objects.get(name) ?? 0)) / clicks,
    ])
    .filter(([, perClick]) => perClick > 0.005)
    .sort((a, b) => b[1] - a[1])
  return { file: (after.fileBytes - before.fileBytes) / clicks, objects }
}
