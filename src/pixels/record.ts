import type { PixelRow } from '../db/types.js'
import { isoMicro } from '../shared/time.js'
import type { PixelRecord } from './schema.js'
import type { PixelType } from './types.js'

export function toPixelRecord(row: PixelRow): PixelRecord {
  return {
    id: row.id,
    name: row.name,
    type: row.type as PixelType,
    value: row.value,
    created_at: isoMicro(row.created_at)!,
    updated_at: isoMicro(row.updated_at)!,
  }
}
