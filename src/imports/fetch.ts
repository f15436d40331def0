/**
 * The outbound client of API imports: GET a page of JSON from another shortener through the
 * service's one guarded outbound client (src/outbound/: every address checked after DNS, the
 * connection pinned to it, time and size limits). Redirects are not followed (an API that
 * redirects is reported). Imports started through our API may reach only public addresses, plus
 * what IMPORT_ALLOWED_HOSTS names; the CLI, run by the operator, may reach any.
 */
import { allowListPolicy, ANY_ADDRESS, type AddressPolicy } from '../outbound/address-policy.js'
import { outboundRequest, OutboundRefused } from '../outbound/request.js'
import type { JsonFetch } from './sources/apis.js'

export { allowListPolicy, ANY_ADDRESS, type AddressPolicy }

export class FetchRefused extends Error {}

export interface FetchOptions {
  policy: AddressPolicy
  timeoutMs?: number
  maxBytes?: number
  /** Aborts a request in flight (the process is stopping). */
  signal?: AbortSignal
}

export function jsonFetch(options: FetchOptions): JsonFetch {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024
  return async (target, headers) => {
    const url = new URL(target)
    let answer
    try {
      answer = await outboundRequest(url, {
        headers,
        policy: options.policy,
        timeoutMs: options.timeoutMs ?? 60_000,
        maxBytes: maxBytes + 1,
        maxRedirects: 0,
        ...(options.signal ? { signal: options.signal } : {}),
      })
    } catch (error) {
      if (error instanceof OutboundRefused)
        throw new FetchRefused(`${error.message} (IMPORT_ALLOWED_HOSTS)`)
      throw error
    }
    if (answer.status < 200 || answer.status > 299)
      throw new Error(`${url.origin}${url.pathname} answered ${answer.status}`)
    if (Buffer.byteLength(answer.body) > maxBytes)
      throw new Error(`${url.origin}${url.pathname} answered more than ${maxBytes} bytes`)
    try {
      return JSON.parse(answer.body) as unknown
    } catch {
      throw new Error(`${url.origin}${url.pathname} did not answer JSON`)
    }
  }
}
