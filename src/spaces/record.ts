import type { SpaceRow } from '../db/types.js'
import { isoMicro } from '../shared/time.js'
import type { SpaceRecord } from './schema.js'

export function toSpaceRecord(row: SpaceRow): SpaceRecord {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    created_at: isoMicro(row.created_at)!,
    updated_at: isoMicro(row.updated_at)!,
  }
}
