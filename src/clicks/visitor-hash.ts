/**
 * Visitor hashes: HMAC-SHA256 of the link, address and User-Agent under a salt that changes
 * every UTC day. Salts live in the settings table (so every process uses the same one) and are
 * deleted once the day after theirs has begun, so old hashes cannot be recomputed.
 */
import { createHmac } from 'node:crypto'
import type { Db } from '../db/connect.js'
import { sharedSecret } from '../db/settings.js'

const PREFIX = 'visitor_salt:'

export class VisitorHasher {
  private readonly salts = new Map<string, Buffer>()
  /** Recent answers: a visitor who clicks again costs a lookup, not a new HMAC. */
  private readonly recent = new Map<string, string>()

  constructor(private readonly db: Db) {}

  /** Loads (or creates) the salts of these days; `hash` needs them loaded. */
  async prepare(days: Iterable<string>): Promise<void> {
    for (const day of days) {
      if (this.salts.has(day)) continue
      this.salts.set(day, await sharedSecret(this.db, `${PREFIX}${day}`))
      await this.forgetBefore(day)
    }
  }

  hash(day: string, linkId: number, ip: string, userAgent: string): string {
    const input = `${linkId}\n${ip}\n${userAgent}`
    const key = `${day}\n${input}`
    const known = this.recent.get(key)
    if (known !== undefined) return known
    const salt = this.salts.get(day)
    if (!salt) throw new Error(`no visitor salt loaded for ${day}`)
    const hash = createHmac('sha256', salt).update(input).digest('base64url').slice(0, 16)
    if (this.recent.size >= 20_000) this.recent.clear()
    this.recent.set(key, hash)
    return hash
  }

  /** Drops salts (and the visitor hashes kept for uniques) of days before yesterday. */
  private async forgetBefore(day: string): Promise<void> {
    const yesterday = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000)
      .toISOString()
      .slice(0, 10)
    for (const known of this.salts.keys()) if (known < yesterday) this.salts.delete(known)
    this.recent.clear()
    await this.db.kysely
      .deleteFrom('settings')
      .where('name', 'like', `${PREFIX}%`)
      .where('name', '<', `${PREFIX}${yesterday}`)
      .execute()
    await this.db.kysely.deleteFrom('click_visitors').where('day', '<', yesterday).execute()
  }
}
