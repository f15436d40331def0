/**
 * Merges the short URL's query into the destination's: parameters of the short URL replace
 * those of the same name, the rest of the destination is kept byte for byte (order, encoding,
 * port, path, fragment). The QR code's scan flag (`qr=1`, links/scan-flag.ts) is not forwarded.
 */
import { SCAN_FLAG } from '../links/scan-flag.js'

const UNSAFE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g

function keyOf(pair: string): string {
  const raw = pair.split('=', 1)[0]!
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '))
  } catch {
    return raw
  }
}

export function mergeQuery(destination: string, incoming: string): string {
  if (incoming === '') return destination
  const pairs = incoming
    .replace(UNSAFE, (c) => encodeURIComponent(c))
    .split('&')
    .filter((p) => p !== '' && p !== SCAN_FLAG)
  if (pairs.length === 0) return destination
  const replaced = new Set(pairs.map(keyOf))
  const hashAt = destination.indexOf('#')
  const fragment = hashAt === -1 ? '' : destination.slice(hashAt)
  const beforeHash = hashAt === -1 ? destination : destination.slice(0, hashAt)
  const queryAt = beforeHash.indexOf('?')
  const base = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt)
  const kept =
    queryAt === -1
      ? []
      : beforeHash
          .slice(queryAt + 1)
          .split('&')
          .filter((p) => p !== '' && !replaced.has(keyOf(p)))
  return `${base}?${[...kept, ...pairs].join('&')}${fragment}`
}
