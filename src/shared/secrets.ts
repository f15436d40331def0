/**
 * Secrets: API keys (random, high-entropy, stored as SHA-256 and compared in constant time)
 * and passwords (link and statistics passwords, stored with scrypt, a deliberately slow hash).
 */
import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto'

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

export function randomString(length: number, alphabet = KEY_ALPHABET): string {
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)]
  return out
}

/** How every generated key begins. */
const KEY_MARK = 'slk_'

/** A new API key: `slk_` and 40 random characters (about 238 bits). */
export function generateApiKey(): string {
  return `${KEY_MARK}${randomString(40)}`
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

/**
 * The stored, non-secret part of a key used to find it (and to revoke it by prefix): `slk_` and
 * the 8 characters after it for a key of that form (every generated key), else the first 8
 * characters; the rest of a key is kept only as its hash. Every key has at least 16 characters,
 * so at least 8 of them stay secret. Migration 0019 trimmed the longer prefixes stored before.
 */
export const LOOKUP_PREFIX_LENGTH = 8

export function keyPrefix(key: string): string {
  return key.slice(0, key.startsWith(KEY_MARK) && key.length >= 24 ? 12 : LOOKUP_PREFIX_LENGTH)
}

export function equalHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 }

function scryptAsync(
  password: string,
  salt: Buffer,
  N: number,
  r: number,
  p: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, SCRYPT.keylen, { N, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    )
  })
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p)
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const actual = await scryptAsync(
    password,
    Buffer.from(salt, 'base64url'),
    Number(n),
    Number(r),
    Number(p),
  )
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}
