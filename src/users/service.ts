/**
 * Users and API keys: creation (with a given or generated key), authentication of a bearer
 * key (a disabled user's keys do not authenticate), when each key was last used, revocation
 * by key or unique prefix, the keys a person manages on the Account page, and the first user
 * of an empty database.
 */
import type { ApiKeyRow, UserRow } from '../db/types.js'
import { FieldErrors, NotFoundError } from '../shared/errors.js'
import {
  equalHex,
  generateApiKey,
  keyPrefix,
  LOOKUP_PREFIX_LENGTH,
  sha256,
} from '../shared/secrets.js'
import { EMAIL_SHAPE } from '../shared/formats.js'
import type { ApiKeyInput } from './schema.js'
import { isValidTimeZone } from '../shared/time.js'
import type { UserStore } from './store.js'

export class UserInputError extends Error {}

export interface Principal {
  userId: number
  keyId: number
}

/** How a key is named when it is not made on the dashboard. */
export const KEY_NAMES = {
  commandLine: 'Command line',
  initial: 'INITIAL_API_KEY',
  firstStart: 'First start',
} as const

/** A key's last use is written at most this often (per key and process). */
export const KEY_USE_INTERVAL_MS = 60_000

export const MIN_KEY_LENGTH = 16
const KEY_SHAPE = /^[\x21-\x7e]{16,128}$/

/** How many checked keys a process keeps (the oldest checked goes first). */
const KEPT_KEYS = 10_000

/**
 * How long a read of the auth generation serves the requests that follow it. A key revoked (or
 * its user disabled) by another process stops working within this time, well inside the
 * contract's one second; by this process, at once (`authChangesHere`). On PostgreSQL the read
 * is a round trip of its own, a quarter of a show's.
 */
export const AUTH_GENERATION_TTL_MS = 250

export class UserService {
  /** When each key's last use was last written by this process. */
  private readonly useWritten = new Map<number, number>()
  /** Keys this process has checked, by hash, with the auth generation they were checked at. */
  private readonly checked = new Map<string, { principal: Principal; generation: number }>()
  /**
   * The last read of the auth generation: its value (a promise, shared by the requests that come
   * while it runs), when it began, and this store's changes then.
   */
  private generation: { value: Promise<number | null>; at: number; changesHere: number } | null =
    null

  /**
   * `elapsed`: a monotonic clock in milliseconds, for how long a read of the auth generation
   * serves (tests move it by hand; `now` may stand still in them).
   */
  constructor(
    private readonly store: UserStore,
    private readonly now: () => number = Date.now,
    private readonly elapsed: () => number = () => performance.now(),
  ) {}

  async createUser(input: {
    email: string
    name?: string
    timezone?: string
    apiKey?: string
    keyName?: string
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
    const apiKey = await this.addKey(user.id, input.keyName ?? KEY_NAMES.commandLine, input.apiKey)
    return { user, apiKey }
  }

  /** The id of the user with this email, if there is one. */
  async idOfEmail(email: string): Promise<number | null> {
    return (await this.store.findByEmail(email))?.id ?? null
  }

  async createKey(email: string, name: string = KEY_NAMES.commandLine): Promise<string> {
    const user = await this.store.findByEmail(email.trim())
    if (!user) throw new UserInputError(`no user with email ${email}`)
    return this.addKey(user.id, name)
  }

  /** A user's live keys, newest first. */
  listKeys(userId: number): Promise<ApiKeyRow[]> {
    return this.store.keysOf(userId)
  }

  /** A new key with a name (checked by the caller's schema); the full key is returned once. */
  async createNamedKey(
    userId: number,
    input: ApiKeyInput,
    errors = new FieldErrors(),
  ): Promise<string> {
    const name = input.key_name?.trim()
    if (!errors.has('key_name') && !name) errors.add('key_name', 'The key name field is required.')
    errors.throwIfAny()
    return this.addKey(userId, name!)
  }

  /** Revokes one of the user's own live keys; any other id is not found. */
  async revokeOwnKey(userId: number, keyId: number): Promise<ApiKeyRow> {
    const key = (await this.store.keysOf(userId)).find((k) => k.id === keyId)
    if (!key) throw new NotFoundError()
    await this.store.revokeKey(key.id, this.now())
    return key
  }

  /**
   * Notes that a key authenticated a request: written at most once a minute per key (per
   * process), so the API's hot path pays a map lookup, not a write, on nearly every request.
   * The caller does not wait for it.
   */
  recordUse(keyId: number): Promise<void> {
    const now = this.now()
    const last = this.useWritten.get(keyId)
    if (last !== undefined && now - last < KEY_USE_INTERVAL_MS) return Promise.resolve()
    this.useWritten.set(keyId, now)
    return this.store.markKeyUsed(keyId, now)
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
    if (candidates.length > 1) {
      // Past the stored prefixes, more characters cannot tell the keys apart: only the key can.
      const more = candidates.some((key) => key.prefix.length > keyOrPrefix.length)
      throw new UserInputError(
        `"${keyOrPrefix}" matches ${candidates.length} keys; give ${more ? 'more characters' : 'the whole key'}`,
      )
    }
    await this.store.revokeKey(candidates[0]!.id, this.now())
  }

  /**
   * The user and key a key stands for, or null. A key checked before is taken as it was while
   * the auth generation (a counter moved by every revocation and every disabled user, see
   * migration 0012) has not moved: one small row read (at most every AUTH_GENERATION_TTL_MS)
   * instead of the key lookup. Keys that did not authenticate are not kept, so a key made since
   * is found at once.
   */
  async authenticate(key: string): Promise<Principal | null> {
    if (!KEY_SHAPE.test(key)) return null
    const hash = sha256(key)
    const generation = await this.currentGeneration()
    const kept = this.checked.get(hash)
    if (kept && generation !== null && kept.generation === generation) return kept.principal
    const prefix = keyPrefix(key)
    const candidates = await this.store.usableKeysWithPrefix(prefix)
    let found: Principal | null = null
    for (const candidate of candidates) {
      if (candidate.prefix === prefix && equalHex(candidate.hash, hash))
        found = { userId: candidate.user_id, keyId: candidate.id }
    }
    this.checked.delete(hash)
    if (found && generation !== null) {
      if (this.checked.size >= KEPT_KEYS) this.checked.delete(this.checked.keys().next().value!)
      this.checked.set(hash, { principal: found, generation })
    }
    return found
  }

  /** The auth generation, read again once AUTH_GENERATION_TTL_MS have passed or this process changed it. */
  private async currentGeneration(): Promise<number | null> {
    const now = this.elapsed()
    const last = this.generation
    const changesHere = this.store.authChangesHere
    if (
      last !== null &&
      last.changesHere === changesHere &&
      now - last.at < AUTH_GENERATION_TTL_MS
    ) {
      return last.value
    }
    // Timed from before the read: a change committed during it is seen within the TTL all the same.
    const value = this.store.authGeneration()
    const read = { value, at: now, changesHere }
    this.generation = read
    // A failed read is not kept: the next request reads again.
    value.catch(() => {
      if (this.generation === read) this.generation = null
    })
    return value
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
      ...(initialApiKey
        ? { apiKey: initialApiKey, keyName: KEY_NAMES.initial }
        : { keyName: KEY_NAMES.firstStart }),
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

  private async addKey(userId: number, name: string, given?: string): Promise<string> {
    const key = given ?? generateApiKey()
    await this.store.addKey(userId, { prefix: keyPrefix(key), hash: sha256(key), name }, this.now())
    return key
  }
}
