import type { DomainRow } from '../db/types.js'
import { isoMicro } from '../shared/time.js'
import type { DomainRecord } from './schema.js'

export function toDomainRecord(row: DomainRow): DomainRecord {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    index_page: row.index_page,
    not_found_page: row.not_found_page,
    global: row.user_id === null,
    created_at: isoMicro(row.created_at)!,
    updated_at: isoMicro(row.updated_at)!,
  }
}
