import type { TagRow } from '../db/types.js'
import { isoMicro } from '../shared/time.js'
import type { TagRecord } from './schema.js'

export function toTagRecord(row: TagRow): TagRecord {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    links: row.links,
    created_at: isoMicro(row.created_at)!,
    updated_at: isoMicro(row.updated_at)!,
  }
}
