import type { UtmTemplateRow } from '../db/types.js'
import { isoMicro } from '../shared/time.js'
import type { UtmTemplateRecord } from './schema.js'

export function toUtmTemplateRecord(row: UtmTemplateRow): UtmTemplateRecord {
  return {
    id: row.id,
    name: row.name,
    utm_source: row.utm_source,
    utm_medium: row.utm_medium,
    utm_campaign: row.utm_campaign,
    utm_term: row.utm_term,
    utm_content: row.utm_content,
    created_at: isoMicro(row.created_at)!,
    updated_at: isoMicro(row.updated_at)!,
  }
}
