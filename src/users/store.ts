/** Users and their API keys. */
import { sql } from 'kysely'
import type { Db } from '../db/connect.js'
import { AUTH_GENERATION, type AuthGenerationTable } from '../db/migrations/0012-auth-generation.js'
import { prepared } from '../db/prepared.js'
import type { ApiKeyRow, PasswordTokenRow, UserRole, UserRow } from '../db/types.js'

export interface NewUser {
  name: string
  email: string
  timezone: string
  role?: UserRole
}

export interface UserStore {
  count(): Promise<number>
  create(user: NewUser, now: number): Promise<UserRow>
  findById(id: number): Promise<UserRow | undefined>
  findByEmail(email: string): Promise<UserRow | undefined>
  addKey(
    userId: number,
    key: { prefix: string; hash: string; name: string },
    now: number,
  ): Promise<ApiKeyRow>
  /** Live keys whose stored prefix starts with `prefix` (at most a few). */
  keysByPrefix(prefix: string): Promise<ApiKeyRow[]>
  /** Live keys stored with exactly this prefix, of users who are not disabled: the keys that may authenticate. */
  usableKeysWithPrefix(prefix: string): Promise<ApiKeyRow[]>
  /** A user's live keys, newest first. */
  keysOf(userId: number): Promise<ApiKeyRow[]>
  markKeyUsed(id: number, at: number): Promise<void>
  /** The auth generation (migration 0012); null when its row is missing, so no key is kept. */
  authGeneration(): Promise<number | null>
  /**
   * How many writes that can stop a key (a revocation, a user disabled or enabled) this store
   * has made: a process sees its own at once, without waiting for its next read of the counter.
   */
  readonly authChangesHere: number
  updateProfile(
    userId: number,
    profile: { name?: string; email?: string; timezone?: string },
    now: number,
  ): Promise<UserRow>
  setDisabled(userId: number, disabled: boolean, now: number): Promise<void>
  keyByHash(hash: string): Promise<ApiKeyRow | undefined>
  revokeKey(id: number, now: number): Promise<void>
  /** Every user, oldest first. */
  listAll(): Promise<UserRow[]>
  /** Sets a password hash and cancels the user's outstanding one-time links, together. */
  setPasswordHash(userId: number, hash: string, now: number): Promise<void>
  setRole(userId: number, role: UserRole, now: number): Promise<void>
  /** Adds a one-time link, cancelling the user's outstanding ones, together. */
  replacePasswordTokens(userId: number, hash: string, now: number, expiresAt: number): Promise<void>
  /** The token with this hash, used or not. */
  findPasswordToken(hash: string): Promise<PasswordTokenRow | undefined>
  /**
   * Sets the password of a user who is not disabled through their unused, unexpired token
   * `tokenHash`, using it up and cancelling their other links, in one transaction; false (and
   * nothing changed) when the user or the token does not qualify.
   */
  setPasswordByToken(
    userId: number,
    tokenHash: string,
    passwordHash: string,
    now: number,
  ): Promise<boolean>
}

export class SqlUserStore implements UserStore {
  authChangesHere = 0

  constructor(private readonly db: Db) {}

  /** Every API request looks its key up (prepared, see db/prepared.ts). */
  private readonly keysWithPrefix = prepared(
    () => this.db,
    2,
    (prefix: string, length: number) =>
      this.db.kysely
        .selectFrom('api_keys')
        .selectAll()
        .where('revoked_at', 'is', null)
        .where((eb) => eb(eb.fn('substr', ['prefix', eb.val(1), eb.val(length)]), '=', prefix))
        .limit(sql.lit(10)),
  )

  /** What every API request asks: an indexed lookup of the key's stored prefix. */
  private readonly usableKeys = prepared(
    () => this.db,
    1,
    (prefix: string) =>
      this.db.kysely
        .selectFrom('api_keys')
        .innerJoin('users', 'users.id', 'api_keys.user_id')
        .selectAll('api_keys')
        .where('api_keys.prefix', '=', prefix)
        .where('api_keys.revoked_at', 'is', null)
        .where('users.disabled', '=', 0)
        .limit(sql.lit(10)),
  )

  private readonly generationRow = prepared(
    () => this.db,
    0,
    () =>
      this.db.kysely
        .withTables<AuthGenerationTable>()
        .selectFrom(AUTH_GENERATION)
        .select('value')
        // A literal: SQLite took about 8 µs a read with `limit ?` against 4 µs with `limit 1`.
        .limit(sql.lit(1)),
  )

  async authGeneration(): Promise<number | null> {
    const value = (await this.generationRow())[0]?.value
    return value === undefined ? null : Number(value)
  }

  async count(): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  create(user: NewUser, now: number): Promise<UserRow> {
    return this.db.kysely
      .insertInto('users')
      .values({ ...user, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.kysely
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst()
  }

  addKey(
    userId: number,
    key: { prefix: string; hash: string; name: string },
    now: number,
  ): Promise<ApiKeyRow> {
    return this.db.kysely
      .insertInto('api_keys')
      .values({ user_id: userId, ...key, created_at: now, revoked_at: null, last_used_at: null })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  usableKeysWithPrefix(prefix: string): Promise<ApiKeyRow[]> {
    return this.usableKeys(prefix)
  }

  keysOf(userId: number): Promise<ApiKeyRow[]> {
    return this.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('id', 'desc')
      .execute()
  }

  /** Outside any request's transaction (on SQLite it commits on its own). */
  async markKeyUsed(id: number, at: number): Promise<void> {
    await this.db.kysely
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .execute()
  }

  updateProfile(
    userId: number,
    profile: { name?: string; email?: string; timezone?: string },
    now: number,
  ): Promise<UserRow> {
    return this.db.kysely
      .updateTable('users')
      .set({ ...profile, updated_at: now })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  /** Also cancels the user's one-time links (see AccountService.setDisabled). */
  async setDisabled(userId: number, disabled: boolean, now: number): Promise<void> {
    await this.db.transaction(async () => {
      await this.db.kysely
        .updateTable('users')
        .set({ disabled: disabled ? 1 : 0, updated_at: now })
        .where('id', '=', userId)
        .execute()
      await this.cancelPasswordTokens(userId, now)
    })
    this.authChangesHere++
  }

  keysByPrefix(prefix: string): Promise<ApiKeyRow[]> {
    return this.keysWithPrefix(prefix, prefix.length)
  }

  keyByHash(hash: string): Promise<ApiKeyRow | undefined> {
    return this.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
  }

  async revokeKey(id: number, now: number): Promise<void> {
    await this.db.kysely
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .execute()
    this.authChangesHere++
  }

  listAll(): Promise<UserRow[]> {
    return this.db.kysely.selectFrom('users').selectAll().orderBy('id').execute()
  }

  async setPasswordHash(userId: number, hash: string, now: number): Promise<void> {
    await this.db.transaction(async () => {
      await this.db.kysely
        .updateTable('users')
        .set({ password_hash: hash, updated_at: now })
        .where('id', '=', userId)
        .execute()
      await this.cancelPasswordTokens(userId, now)
    })
  }

  async setRole(userId: number, role: UserRole, now: number): Promise<void> {
    await this.db.kysely
      .updateTable('users')
      .set({ role, updated_at: now })
      .where('id', '=', userId)
      .execute()
  }

  async replacePasswordTokens(
    userId: number,
    hash: string,
    now: number,
    expiresAt: number,
  ): Promise<void> {
    await this.db.transaction(async () => {
      await this.cancelPasswordTokens(userId, now)
      await this.db.kysely
        .insertInto('password_links')
        .values({ user_id: userId, hash, created_at: now, expires_at: expiresAt, used_at: null })
        .execute()
    })
  }

  findPasswordToken(hash: string): Promise<PasswordTokenRow | undefined> {
    return this.db.kysely
      .selectFrom('password_links')
      .selectAll()
      .where('hash', '=', hash)
      .executeTakeFirst()
  }

  async setPasswordByToken(
    userId: number,
    tokenHash: string,
    passwordHash: string,
    now: number,
  ): Promise<boolean> {
    try {
      await this.db.transaction(async () => {
        // The user's row first, then the links, as a password change and disabling do: uses of a
        // user's links at once wait for each other on that row instead of deadlocking.
        const user = await this.db.kysely
          .updateTable('users')
          .set({ password_hash: passwordHash, updated_at: now })
          .where('id', '=', userId)
          .where('disabled', '=', 0)
          .executeTakeFirst()
        if (Number(user.numUpdatedRows) !== 1) throw new NotQualified()
        const token = await this.db.kysely
          .updateTable('password_links')
          .set({ used_at: now })
          .where('hash', '=', tokenHash)
          .where('user_id', '=', userId)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .executeTakeFirst()
        if (Number(token.numUpdatedRows) !== 1) throw new NotQualified()
        await this.cancelPasswordTokens(userId, now)
      })
      return true
    } catch (error) {
      if (error instanceof NotQualified) return false
      throw error
    }
  }

  /** Marks every outstanding link of the user used: none of them works any more. */
  private async cancelPasswordTokens(userId: number, now: number): Promise<void> {
    await this.db.kysely
      .updateTable('password_links')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute()
  }
}

/** Rolls back the use of a token that does not qualify (setPasswordByToken). */
class NotQualified extends Error {}
