/** Sessions in the `sessions` table (SQLite or PostgreSQL): single statements, no transaction. */
import type { Db } from '../db/connect.js'
import type { SessionStore, StoredSession } from './store.js'

export class SqlSessionStore implements SessionStore {
  constructor(private readonly db: Db) {}

  async create(session: StoredSession): Promise<void> {
    await this.db.kysely
      .insertInto('sessions')
      .values({
        id_hash: session.idHash,
        user_id: session.userId,
        csrf_secret: session.csrfSecret,
        created_at: session.createdAt,
        last_seen_at: session.lastSeenAt,
      })
      .execute()
  }

  async find(idHash: string): Promise<StoredSession | undefined> {
    const row = await this.db.kysely
      .selectFrom('sessions')
      .selectAll()
      .where('id_hash', '=', idHash)
      .executeTakeFirst()
    return row
      ? {
          idHash: row.id_hash,
          userId: row.user_id,
          csrfSecret: row.csrf_secret,
          createdAt: Number(row.created_at),
          lastSeenAt: Number(row.last_seen_at),
        }
      : undefined
  }

  async touch(idHash: string, at: number): Promise<void> {
    await this.db.kysely
      .updateTable('sessions')
      .set({ last_seen_at: at })
      .where('id_hash', '=', idHash)
      .execute()
  }

  async delete(idHash: string): Promise<void> {
    await this.db.kysely.deleteFrom('sessions').where('id_hash', '=', idHash).execute()
  }

  async deleteForUser(userId: number, keep?: string): Promise<void> {
    let query = this.db.kysely.deleteFrom('sessions').where('user_id', '=', userId)
    if (keep !== undefined) query = query.where('id_hash', '!=', keep)
    await query.execute()
  }

  async sweep(idleBefore: number, createdBefore: number): Promise<void> {
    await this.db.kysely
      .deleteFrom('sessions')
      .where((eb) =>
        eb.or([eb('last_seen_at', '<', idleBefore), eb('created_at', '<', createdBefore)]),
      )
      .execute()
  }
}
