/**
 * Dashboard sessions: a random id (256 bits) in the browser's cookie, only its SHA-256 on the
 * server. A session ends after 12 hours without a request (idle) and 30 days after sign-in
 * (absolute), whichever comes first; activity is recorded at most once a minute.
 */
import { randomBytes } from 'node:crypto'
import { sha256 } from '../shared/secrets.js'
import type { SessionStore, StoredSession } from './store.js'

export const IDLE_TIMEOUT_MS = 12 * 60 * 60 * 1000
export const ABSOLUTE_TIMEOUT_MS = 30 * 24 * 60 * 60 * 1000
const TOUCH_AFTER_MS = 60 * 1000
/** Abandoned sessions are removed at a sign-in at most this often. */
const SWEEP_EVERY_MS = 60 * 60 * 1000
/** Session ids are 43 base64url characters; anything else is not looked up. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/

export interface Session extends StoredSession {
  /** The id as the cookie carries it. */
  id: string
}

export class SessionService {
  private lastSweep = 0

  constructor(
    private readonly store: SessionStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new session (a new id every time: never reuse one from before sign-in). */
  async start(userId: number): Promise<Session> {
    const id = randomBytes(32).toString('base64url')
    const at = this.now()
    const session: StoredSession = {
      idHash: sha256(id),
      userId,
      csrfSecret: randomBytes(32).toString('base64url'),
      createdAt: at,
      lastSeenAt: at,
    }
    await this.store.create(session)
    if (at - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = at
      await this.store.sweep(at - IDLE_TIMEOUT_MS, at - ABSOLUTE_TIMEOUT_MS)
    }
    return { ...session, id }
  }

  /** The live session with this id, its activity recorded; `null` if unknown or timed out. */
  async resume(id: string | undefined): Promise<Session | null> {
    if (id === undefined || !SESSION_ID.test(id)) return null
    const idHash = sha256(id)
    const stored = await this.store.find(idHash)
    if (!stored) return null
    const at = this.now()
    if (at - stored.lastSeenAt >= IDLE_TIMEOUT_MS || at - stored.createdAt >= ABSOLUTE_TIMEOUT_MS) {
      await this.store.delete(idHash)
      return null
    }
    if (at - stored.lastSeenAt >= TOUCH_AFTER_MS) {
      await this.store.touch(idHash, at)
      stored.lastSeenAt = at
    }
    return { ...stored, id }
  }

  async end(id: string): Promise<void> {
    await this.store.delete(sha256(id))
  }

  /** Ends every session of the user but `keepId` (the one making the change), if given. */
  async endOthers(userId: number, keepId?: string): Promise<void> {
    await this.store.deleteForUser(userId, keepId === undefined ? undefined : sha256(keepId))
  }
}
