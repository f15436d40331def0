/**
 * Signing in with an email and a password, setting passwords, and the one-time links that let
 * someone set one. A wrong email and a wrong password take the same path and about the same
 * time (an unknown email still costs one scrypt hash); a disabled user or one without a
 * password fails like a wrong password. Setting a password ends the user's other sessions.
 *
 * A one-time link works once, for 24 hours, and only while it is its user's newest: issuing a
 * link cancels the user's earlier ones, and setting a password by any path (a link, the
 * Account page, `slink user password`) cancels them all. A disabled user's link is refused;
 * disabling or enabling a user ends their sessions and cancels their links, so nothing made
 * while a user was disabled works once they are enabled again.
 */
import { randomBytes } from 'node:crypto'
import type { UserRole, UserRow } from '../db/types.js'
import { FieldErrors, ForbiddenError, NotFoundError } from '../shared/errors.js'
import { isUniqueViolation } from '../db/errors.js'
import { takenMessage, writeUnique } from '../db/unique.js'
import type { NewUserInput, ProfileInput } from './schema.js'
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

  /**
   * Sets the password, cancels the user's one-time links and ends their sessions but
   * `keepSessionId`.
   */
  async setPassword(userId: number, password: string, keepSessionId?: string): Promise<void> {
    const problem = passwordProblem(password)
    if (problem) throw new UserInputError(problem)
    await this.store.setPasswordHash(userId, await hashPassword(password), this.now())
    await this.sessions.endOthers(userId, keepSessionId)
  }

  /**
   * Changes a person's name, email or time zone (already checked by the form's schema). A new
   * email that another account has is left out, and nothing says so: the answer is the one a
   * free address gets, so the form does not tell whether an address has an account
   * (docs/dashboard.md, "Email changes"). The other fields are saved either way.
   */
  async updateProfile(
    userId: number,
    input: ProfileInput,
    errors = new FieldErrors(),
  ): Promise<UserRow> {
    const { email, ...rest } = input
    const profile: ProfileInput = { ...rest, ...(rest.name ? { name: rest.name.trim() } : {}) }
    if (profile.name === '' && !errors.has('name'))
      errors.add('name', 'The name field is required.')
    if (email !== undefined && !errors.has('email')) {
      const other = await this.store.findByEmail(email.trim())
      if (!other || other.id === userId) profile.email = email.trim()
    }
    errors.throwIfAny()
    const now = this.now()
    try {
      return await this.store.updateProfile(userId, profile, now)
    } catch (error) {
      // Another account took the address meanwhile: it is left out like a taken one.
      if (!isUniqueViolation(error) || profile.email === undefined) throw error
      delete profile.email
      return this.store.updateProfile(userId, profile, now)
    }
  }

  /**
   * A user made by an administrator, without a password or an API key: they set a password
   * through a one-time link (see `issueToken`) and make their keys on the Account page.
   */
  async createUser(input: NewUserInput, errors = new FieldErrors()): Promise<UserRow> {
    const email = input.email?.trim()
    if (email !== undefined && !errors.has('email') && (await this.store.findByEmail(email)))
      errors.add('email', takenMessage('email'))
    const name = input.name?.trim()
    if (name === '' && !errors.has('name')) errors.add('name', 'The name field is required.')
    errors.throwIfAny()
    return writeUnique(errors, 'email', () =>
      this.store.create(
        { email: email!, name: name!, timezone: 'UTC', role: input.role ?? 'user' },
        this.now(),
      ),
    )
  }

  /**
   * Disables or enables a user: either way their sessions end and their one-time links are
   * cancelled (their API keys stop working through authentication, which skips disabled users).
   * Administrators cannot disable themselves, so there is always one who can undo it.
   */
  async setDisabled(actorId: number, userId: number, disabled: boolean): Promise<UserRow> {
    const user = await this.other(actorId, userId)
    await this.store.setDisabled(user.id, disabled, this.now())
    await this.sessions.endOthers(user.id)
    return user
  }

  /** Makes a user an administrator or a plain user; never the acting administrator. */
  async setRole(actorId: number, userId: number, role: UserRole): Promise<UserRow> {
    const user = await this.other(actorId, userId)
    await this.store.setRole(user.id, role, this.now())
    return user
  }

  private async other(actorId: number, userId: number): Promise<UserRow> {
    const user = await this.store.findById(userId)
    if (!user) throw new NotFoundError()
    if (user.id === actorId) throw new ForbiddenError()
    return user
  }

  /** A new one-time token for the user (valid 24 hours); the user's earlier ones are cancelled. */
  async issueToken(userId: number): Promise<string> {
    const token = randomId()
    const at = this.now()
    await this.store.replacePasswordTokens(userId, sha256(token), at, at + PASSWORD_TOKEN_TTL_MS)
    return token
  }

  /**
   * The user a token lets set a password, or `null` if it is unknown, used, cancelled or
   * expired. The user may be disabled: `useToken` refuses them.
   */
  async tokenUser(token: string): Promise<UserRow | null> {
    if (!TOKEN_SHAPE.test(token)) return null
    const row = await this.store.findPasswordToken(sha256(token))
    if (!row || row.used_at !== null || Number(row.expires_at) <= this.now()) return null
    return (await this.store.findById(row.user_id)) ?? null
  }

  /**
   * Sets the password through a token, once: `null` if the token is not usable (any more),
   * `DisabledUserError` if its user is disabled. The password is checked first, so a rejected
   * password leaves the token usable. The token, the user's other links and the new password
   * are written in one transaction: of two links used at once, one wins.
   */
  async useToken(token: string, password: string): Promise<UserRow | null> {
    const user = await this.tokenUser(token)
    if (!user) return null
    if (user.disabled !== 0) throw new DisabledUserError()
    const problem = passwordProblem(password)
    if (problem) throw new UserInputError(problem)
    const hash = await hashPassword(password)
    if (!(await this.store.setPasswordByToken(user.id, sha256(token), hash, this.now())))
      return null
    await this.sessions.endOthers(user.id)
    return user
  }
}

/** A one-time link of a disabled user: refused, and no session is made. */
export class DisabledUserError extends Error {
  constructor() {
    super('this user is disabled')
  }
}

function randomId(): string {
  return randomBytes(32).toString('base64url')
}

/** The page a token opens, on the service's public URL. */
export function passwordLink(publicUrl: URL, token: string): string {
  return new URL(`/password/${token}`, publicUrl).href
}
