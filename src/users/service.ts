/**
 * Users and API keys: creation (with a given or generated key), authentication of a bearer
 * key, revocation by key or unique prefix, and the first user of an empty database.
 */
import type { UserRow } from '../db/types.js'
import {
  equalHex,
  generateApiKey,
  keyPrefix,
  LOOKUP_PREFIX_LENGTH,
  sha256,
} from '../shared/secrets.js'
import { isValidTimeZone } from '../shared/time.js'
import type { UserStore } from './store.js'

export class UserInputError extends Error {}

export interface Principal {
  userId: number
  keyId: number
}

export const MIN_KEY_LENGTH = 16
const KEY_SHAPE = /^[\x21-\x7e]{16,128}$/
const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,255}$/

export class UserService {
  constructor(
    private readonly store: UserStore,
    private readonly now: () => number = Date.now,
  ) {}

  async createUser(input: {
    email: string
    name?: string
    timezone?: string
    apiKey?: string
  }): Promise<{ user: UserRow; apiKey: string }> {
    const email = input.email.trim()
    if (!EMAIL_SHAPE.test(email)) throw new UserInputError(`invalid email "${input.email}"`)
    const timezone = input.timezone ?? 'UTC'
    if (!isValidTimeZone(timezone)) throw new UserInputError(`unknown time zone "${timezone}"`)
    const name = (input.name ?? email.split('@')[0]!).trim()
    if (name === '' || name.length > 255)
      throw new UserInputError('name must be 1 to 255 characters')
    if (input.apiKey !== undefined) await this.checkNewKey(input.apiKey)
    if (await this.store.findByEmail(email))
      throw new UserInputError(`a user with email ${email} already exists`)
    // The first user of a database is its administrator.
    const role = (await this.store.count()) === 0 ? 'admin' : 'user'
    const user = await this.store.create({ name, email, timezone, role }, this.now())
    const apiKey = await this.addKey(user.id, input.apiKey)
    return { user, apiKey }
  }

  /** The id of the user with this email, if there is one. */
  async idOfEmail(email: string): Promise<number | null> {
    return (await this.store.findByEmail(email))?.id ?? null
  }

  async createKey(email: string): Promise<string> {
    const user = await this.store.findByEmail(email.trim())
    if (!user) throw new UserInputError(`no user with email ${email}`)
    return this.addKey(user.id)
  }

  /** Revokes the live key given in full, or the only live key starting with `prefix` (≥ 8 characters). */
  async revokeKey(keyOrPrefix: string): Promise<void> {
    const exact = await this.store.keyByHash(sha256(keyOrPrefix))
    if (exact) return this.store.revokeKey(exact.id, this.now())
    if (keyOrPrefix.length < LOOKUP_PREFIX_LENGTH)
      throw new UserInputError('a key prefix needs at least 8 characters')
    // Only the stored prefix can be compared: the given text and a key's prefix must agree as far as both go.
    const candidates = (
      await this.store.keysByPrefix(keyOrPrefix.slice(0, LOOKUP_PREFIX_LENGTH))
    ).filter((key) => keyOrPrefix.startsWith(key.prefix) || key.prefix.startsWith(keyOrPrefix))
    if (candidates.length === 0)
      throw new UserInputError(`no live API key matches "${keyOrPrefix}"`)
    if (candidates.length > 1)
      throw new UserInputError(
        `"${keyOrPrefix}" matches ${candidates.length} keys; give more characters`,
      )
    await this.store.revokeKey(candidates[0]!.id, this.now())
  }

  async authenticate(key: string): Promise<Principal | null> {
    if (!KEY_SHAPE.test(key)) return null
    const hash = sha256(key)
    const prefix = keyPrefix(key)
    const candidates = await this.store.keysByPrefix(prefix.slice(0, LOOKUP_PREFIX_LENGTH))
    let found: Principal | null = null
    for (const candidate of candidates) {
      if (candidate.prefix === prefix && equalHex(candidate.hash, hash))
        found = { userId: candidate.user_id, keyId: candidate.id }
    }
    return found
  }

  findUser(id: number): Promise<UserRow | undefined> {
    return this.store.findById(id)
  }

  /** On an empty database, creates the first user; returns its key when one was generated. */
  async ensureFirstUser(
    initialApiKey: string | null,
  ): Promise<{ userId: number; email: string; apiKey: string | null } | null> {
    if ((await this.store.count()) > 0) return null
    const { user, apiKey } = await this.createUser({
      email: 'admin@localhost',
      name: 'Admin',
      ...(initialApiKey ? { apiKey: initialApiKey } : {}),
    })
    return { userId: user.id, email: user.email, apiKey: initialApiKey ? null : apiKey }
  }

  private async checkNewKey(key: string): Promise<void> {
    if (!KEY_SHAPE.test(key)) {
      throw new UserInputError('an API key must be 16 to 128 printable characters without spaces')
    }
    if (await this.store.keyByHash(sha256(key)))
      throw new UserInputError('that API key is already in use')
  }

  private async addKey(userId: number, given?: string): Promise<string> {
    const key = given ?? generateApiKey()
    await this.store.addKey(userId, keyPrefix(key), sha256(key), this.now())
    return key
  }
}
