/**
 * Signing in with an email and a password, setting passwords, and the one-time links that let
 * someone set one. A wrong email and a wrong password take the same path and about the same
 * time (an unknown email still costs one scrypt hash); a disabled user or one without a
 * password fails like a wrong password. Setting a password ends the user's other sessions.
 */
import { randomBytes } from 'node:crypto'
import type { UserRow } from '../db/types.js'
import type { SessionService } from '../sessions/service.js'
import { hashPassword, sha256, verifyPassword } from '../shared/secrets.js'
import { UserInputError } from './service.js'
import type { UserStore } from './store.js'

export const PASSWORD_TOKEN_TTL_MS = 24 * 60 * 60 * 1000
export const MIN_PASSWORD_LENGTH = 8
export const MAX_PASSWORD_LENGTH = 128
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/

/** Why a password cannot be used, or `null` when it can. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`
  if (password.length > MAX_PASSWORD_LENGTH)
    return `The password may not be longer than ${MAX_PASSWORD_LENGTH} characters.`
  return null
}

export class AccountService {
  /** A hash of a random password, checked when the email is unknown (same cost as a real check). */
  private dummy: Promise<string> | null = null

  constructor(
    private readonly store: UserStore,
    private readonly sessions: SessionService,
    private readonly now: () => number = Date.now,
  ) {}

  /** The user these credentials belong to, or `null` (whatever the reason). */
  async verify(email: string, password: string): Promise<UserRow | null> {
    const user = email.length <= 320 ? await this.store.findByEmail(email.trim()) : undefined
    const hash = user?.password_hash ?? (await (this.dummy ??= hashPassword(randomId())))
    const ok = password.length <= MAX_PASSWORD_LENGTH && (await verifyPassword(password, hash))
    if (!user || !ok || user.password_hash === null || user.disabled !== 0) return null
    return user
  }

  listUsers(): Promise<UserRow[]> {
    return this.store.listAll()
  }

  findUser(id: number): Promise<UserRow | undefined> {
    return this.store.findById(id)
  }

  async findByEmail(email: string): Promise<UserRow> {
    const user = await this.store.findByEmail(email.trim())
    if (!user) throw new UserInputError(`no user with email ${email}`)
    return user
  }

  /** Sets the password and ends the user's sessions but `keepSessionId`. */
  async setPassword(userId: number, password: string, keepSessionId?: string): Promise<void> {
    const problem = passwordProblem(password)
    if (problem) throw new UserInputError(problem)
    await this.store.setPasswordHash(userId, await hashPassword(password), this.now())
    await this.sessions.endOthers(userId, keepSessionId)
  }

  /** A new one-time token for the user (valid 24 hours). */
  async issueToken(userId: number): Promise<string> {
    const token = randomId()
    const at = this.now()
    await this.store.addPasswordToken(userId, sha256(token), at, at + PASSWORD_TOKEN_TTL_MS)
    return token
  }

  /** The user a token lets set a password, or `null` if it is unknown, used or expired. */
  async tokenUser(token: string): Promise<UserRow | null> {
    if (!TOKEN_SHAPE.test(token)) return null
    const row = await this.store.findPasswordToken(sha256(token))
    if (!row || row.used_at !== null || Number(row.expires_at) <= this.now()) return null
    return (await this.store.findById(row.user_id)) ?? null
  }

  /**
   * Sets the password through a token, once: `null` if the token is not usable (any more).
   * The password is checked first, so a rejected password leaves the token usable.
   */
  async useToken(token: string, password: string): Promise<UserRow | null> {
    const user = await this.tokenUser(token)
    if (!user) return null
    const problem = passwordProblem(password)
    if (problem) throw new UserInputError(problem)
    if (!(await this.store.usePasswordToken(sha256(token), this.now()))) return null
    await this.setPassword(user.id, password)
    return user
  }
}

function randomId(): string {
  return randomBytes(32).toString('base64url')
}

/** The page a token opens, on the service's public URL. */
export function passwordLink(publicUrl: URL, token: string): string {
  return new URL(`/password/${token}`, publicUrl).href
}
