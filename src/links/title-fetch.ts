/**
 * Fetches a destination page's `<title>` through the guarded outbound client (src/outbound/):
 * GET only, HTML only, a few redirects at most, time- and size-limited, and (unless told
 * otherwise) never towards a private, loopback or otherwise non-public address, on any hop.
 */
import { decodeHTML } from 'entities'
import { ANY_ADDRESS, PUBLIC_ONLY, type AddressPolicy } from '../outbound/address-policy.js'
import { outboundRequest } from '../outbound/request.js'

export interface TitleFetchOptions {
  /** Any address (tests); else `policy`. */
  allowPrivate?: boolean
  /** Which addresses may be reached (default: public ones only). */
  policy?: AddressPolicy
  timeoutMs?: number
  maxBytes?: number
  maxRedirects?: number
  /** Aborts the fetch (a stopping service). */
  signal?: AbortSignal
}

export function extractTitle(html: string): string | null {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)
  if (!match) return null
  const title = decodeHTML(match[1]!).replace(/\s+/g, ' ').trim()
  return title === '' ? null : title.slice(0, 255)
}

/** The page's title, or null when there is none or it could not be fetched safely. */
export async function fetchTitle(
  target: string,
  options: TitleFetchOptions = {},
): Promise<string | null> {
  try {
    const answer = await outboundRequest(target, {
      method: 'GET',
      headers: {
        'user-agent': 'Mozilla/5.0 (compatible; slink title fetcher)',
        accept: 'text/html',
      },
      policy: options.allowPrivate ? ANY_ADDRESS : (options.policy ?? PUBLIC_ONLY),
      timeoutMs: options.timeoutMs ?? 5000,
      maxBytes: options.maxBytes ?? 256 * 1024,
      maxRedirects: options.maxRedirects ?? 3,
      ...(options.signal ? { signal: options.signal } : {}),
      enough: (text) => /<\/title>/i.test(text),
    })
    const type = String(answer.headers['content-type'] ?? '')
    if (answer.status !== 200 || !/text\/html|application\/xhtml/i.test(type)) return null
    return extractTitle(answer.body)
  } catch {
    return null
  }
}
