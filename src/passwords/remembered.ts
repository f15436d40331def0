/**
 * A correct password is remembered by a signed cookie scoped to one link (and one purpose:
 * the link itself or its statistics). The signature covers the link, a tag of the stored
 * password hash (a new password forgets old cookies) and the expiry.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

export const REMEMBER_SECONDS = 3600

export type Purpose = 'link' | 'stats'

export function cookieName(purpose: Purpose, linkId: number): string {
  return `slink_${purpose === 'link' ? 'pw' : 'st'}_${linkId}`
}

function mac(
  secret: Buffer,
  purpose: Purpose,
  linkId: number,
  tag: string,
  expires: number,
): string {
  return createHmac('sha256', secret)
    .update(`${purpose}:${linkId}:${tag}:${expires}`)
    .digest('base64url')
}

export function rememberValue(
  secret: Buffer,
  purpose: Purpose,
  linkId: number,
  tag: string,
  now: number,
): string {
  const expires = Math.floor(now / 1000) + REMEMBER_SECONDS
  return `${expires}.${mac(secret, purpose, linkId, tag, expires)}`
}

export function isRemembered(
  secret: Buffer,
  purpose: Purpose,
  linkId: number,
  tag: string,
  value: string | undefined,
  now: number,
): boolean {
  if (!value || value.length > 200) return false
  const dot = value.indexOf('.')
  const expires = Number(value.slice(0, dot))
  if (dot <= 0 || !Number.isInteger(expires) || expires * 1000 <= now) return false
  const expected = Buffer.from(mac(secret, purpose, linkId, tag, expires))
  const given = Buffer.from(value.slice(dot + 1))
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** Reads one cookie from a Cookie header without parsing the rest (hostile headers cost little). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header || header.length > 8192) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

export function setCookieHeader(
  name: string,
  value: string,
  path: string,
  secure: boolean,
): string {
  return `${name}=${value}; Max-Age=${REMEMBER_SECONDS}; Path=${path}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`
}
