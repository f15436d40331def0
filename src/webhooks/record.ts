import type { WebhookRow } from '../db/types.js'
import { isoMicro } from '../shared/time.js'
import type { DeliveryRecord, WebhookRecord, WebhookWithSecret } from './schema.js'
import type { LoggedDelivery } from './store.js'

export function toWebhookRecord(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    active: row.active,
    disabled_reason: row.disabled_reason,
    created_at: isoMicro(row.created_at)!,
    updated_at: isoMicro(row.updated_at)!,
  }
}

export function withSecret(row: WebhookRow): WebhookWithSecret {
  return { ...toWebhookRecord(row), secret: row.secret }
}

export function toDeliveryRecord({ delivery: row, log }: LoggedDelivery): DeliveryRecord {
  return {
    id: row.id,
    message_id: row.message_id,
    event: row.type,
    status: row.status,
    attempts: row.attempts,
    status_code: row.last_status_code,
    duration_ms: row.last_duration_ms,
    error: row.last_error,
    attempted_at: isoMicro(row.last_attempt_at),
    next_attempt_at: row.status === 'pending' ? isoMicro(row.next_attempt_at) : null,
    created_at: isoMicro(row.created_at)!,
    attempt_log: log.map((a) => ({
      attempted_at: isoMicro(a.attempted_at)!,
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
    })),
  }
}
