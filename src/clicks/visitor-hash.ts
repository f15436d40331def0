/**
 * Visitor hashes: HMAC-SHA256 of the link, address and User-Agent under a salt that changes
 * every UTC day. Salts live in the settings table (so every process uses the same one) and are
 * deleted once their day is over and the next has begun, so old hashes cannot be recomputed.
 */
import { createHmac } from 'node:crypto'
import type { Db } from '../db/connect.js'
import { sharedSecret } from '../shared/settings.js'

const PREFIX = 'visitor_salt:'

export class VisitorHasher {
  private readonly salts = new Map<string, Buffer>()

  constructor(private readonly db: Db) {}

  async hash(day: string, linkId: number, ip: string, userAgent: string): Promise<string> {
    const salt = await this.saltOf(day)
    return createHmac('sha256', salt)
      .update(`${linkId}\n${ip}\n${userAgent}`)
      .digest('base64url')
      .slice(0, 16)
  }

  private async saltOf(day: string): Promise<Buffer> {
    const cached = this.salts.get(day)
    if (cached) return cached
    const salt = await sharedSecret(this.db, `${PREFIX}${day}`)
    this.salts.set(day, salt)
    await this.forgetBefore(day)
    return salt
  }

  /** Drops salts (and the visitor hashes kept for uniques) of days before yesterday. */
  private async forgetBefore(day: string): Promise<void> {
    const yesterday = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000)
      .toISOString()
      .slice(0, 10)
    for (const known of this.salts.keys()) if (known < yesterday) this.salts.delete(known)
    await this.db.kysely
      .deleteFrom('settings')
      .where('name', 'like', `${PREFIX}%`)
      .where('name', '<', `${PREFIX}${yesterday}`)
      .execute()
    await this.db.kysely.deleteFrom('click_visitors').where('day', '<', yesterday).execute()
  }
}
