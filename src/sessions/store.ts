/**
 * Where dashboard sessions live: the database by default, Redis when it is configured. Both
 * implement this interface; a session is found by the SHA-256 of its id, never by the id.
 */
export interface StoredSession {
  idHash: string
  userId: number
  csrfSecret: string
  createdAt: number
  lastSeenAt: number
}

export interface SessionStore {
  create(session: StoredSession): Promise<void>
  find(idHash: string): Promise<StoredSession | undefined>
  /** Records activity (the idle timeout counts from here). */
  touch(idHash: string, at: number): Promise<void>
  delete(idHash: string): Promise<void>
  /** Ends every session of the user except `keep` (a hash), if given. */
  deleteForUser(userId: number, keep?: string): Promise<void>
  /**
   * Removes sessions idle since before `idleBefore` or created before `createdBefore`
   * (sessions nobody comes back to; a store whose entries expire by themselves does nothing).
   */
  sweep(idleBefore: number, createdBefore: number): Promise<void>
}
