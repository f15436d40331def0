/**
 * Standard Webhooks signing: a `whsec_` secret (base64 of 32 random bytes), and the
 * `webhook-signature` header `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed by the
 * secret's decoded bytes.
 */
import { createHmac, randomBytes } from 'node:crypto'

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

export function newMessageId(): string {
  return `msg_${randomBytes(12).toString('hex')}`
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')
  return `v1,${mac}`
}
