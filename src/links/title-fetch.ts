/**
 * Fetches a destination page's `<title>`: GET only, HTML only, a few redirects at most,
 * time- and size-limited, and (unless told otherwise) never towards a private, loopback or
 * otherwise non-public address: every hop's address is checked and then pinned for the
 * connection, so a DNS answer cannot change between the check and the request.
 */
import { lookup } from 'node:dns/promises'
import { decodeHTML } from 'entities'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { isPublicAddress } from '../shared/addresses.js'

export interface TitleFetchOptions {
  allowPrivate?: boolean
  timeoutMs?: number
  maxBytes?: number
  maxRedirects?: number
}

export function extractTitle(html: string): string | null {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)
  if (!match) return null
  const title = decodeHTML(match[1]!).replace(/\s+/g, ' ').trim()
  return title === '' ? null : title.slice(0, 255)
}

async function pinnedAddress(
  hostname: string,
  allowPrivate: boolean,
): Promise<{ address: string; family: number }> {
  const bare = hostname.replace(/^\[|\]$/g, '')
  const answers = await lookup(bare, { all: true })
  if (answers.length === 0) throw new Error('no address')
  if (!allowPrivate && answers.some((a) => !isPublicAddress(a.address)))
    throw new Error('non-public address')
  return answers[0]!
}

function get(
  url: URL,
  pinned: { address: string; family: number },
  options: Required<TitleFetchOptions>,
) {
  return new Promise<{ status: number; location?: string; html?: string }>((resolve, reject) => {
    const pin: LookupFunction = (_host, opts, callback) => {
      if ((opts as { all?: boolean }).all) callback(null, [pinned])
      else callback(null, pinned.address, pinned.family)
    }
    const client = url.protocol === 'https:' ? https : http
    const request = client.get(
      url,
      {
        lookup: pin,
        timeout: options.timeoutMs,
        headers: {
          'user-agent': 'Mozilla/5.0 (compatible; slink title fetcher)',
          accept: 'text/html',
        },
      },
      (response) => {
        const status = response.statusCode ?? 0
        const type = String(response.headers['content-type'] ?? '')
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume()
          return resolve({ status, location: response.headers.location })
        }
        if (status !== 200 || !/text\/html|application\/xhtml/i.test(type)) {
          response.resume()
          return resolve({ status })
        }
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk)
          size += chunk.length
          const text = Buffer.concat(chunks).toString('utf8')
          if (size >= options.maxBytes || /<\/title>/i.test(text)) {
            request.destroy()
            resolve({ status, html: text })
          }
        })
        response.on('end', () => resolve({ status, html: Buffer.concat(chunks).toString('utf8') }))
        response.on('error', reject)
      },
    )
    request.on('timeout', () => request.destroy(new Error('timeout')))
    request.on('error', reject)
  })
}

/** The page's title, or null when there is none or it could not be fetched safely. */
export async function fetchTitle(
  target: string,
  opts: TitleFetchOptions = {},
): Promise<string | null> {
  const options = {
    allowPrivate: false,
    timeoutMs: 5000,
    maxBytes: 256 * 1024,
    maxRedirects: 3,
    ...opts,
  }
  const deadline = Date.now() + options.timeoutMs
  let url = new URL(target)
  try {
    for (let hop = 0; hop <= options.maxRedirects; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
      const pinned = await pinnedAddress(url.hostname, options.allowPrivate)
      const left = deadline - Date.now()
      if (left <= 0) return null
      const result = await get(url, pinned, { ...options, timeoutMs: left })
      if (result.location) {
        url = new URL(result.location, url)
        continue
      }
      return result.html ? extractTitle(result.html) : null
    }
  } catch {
    return null
  }
  return null
}
