/**
 * The outbound client of API imports: GET a page of JSON from another shortener. Every host
 * name is resolved and each address checked before connecting, and the connection is pinned
 * to the checked address (a DNS answer cannot change in between); redirects are not followed
 * (an API that redirects is reported); the answer is limited in time and size. Imports started
 * through our API may reach only public addresses, plus what IMPORT_ALLOWED_HOSTS names; the
 * CLI, run by the operator, may reach any. Kept small, with the address policy of the shared
 * outbound client being built for webhooks (the same `allows(hostname, address)`), so that
 * client can take its place once it lands.
 */
import { lookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { isPublicAddress, unmapIPv4 } from '../shared/addresses.js'
import type { JsonFetch } from './sources/apis.js'

export interface AddressPolicy {
  allows(hostname: string, address: string): boolean
}

export const ANY_ADDRESS: AddressPolicy = { allows: () => true }

/** The syntax of one IMPORT_ALLOWED_HOSTS entry: a host name, an address or a CIDR. */
export function isAllowListEntry(entry: string): boolean {
  const [net, prefix, extra] = entry.split('/')
  if (extra !== undefined || net === undefined) return false
  const family = isIP(net)
  if (prefix !== undefined) {
    const max = family === 4 ? 32 : family === 6 ? 128 : -1
    return /^\d{1,3}$/.test(prefix) && Number(prefix) <= max
  }
  return (
    family !== 0 || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(net)
  )
}

/** Public addresses, plus the named hosts, addresses and networks. */
export function allowListPolicy(entries: readonly string[]): AddressPolicy {
  const names = new Set<string>()
  const networks = new BlockList()
  for (const entry of entries) {
    const [net, prefix] = entry.split('/') as [string, string | undefined]
    const family = isIP(net)
    if (family === 0) names.add(net.toLowerCase())
    else if (prefix === undefined) networks.addAddress(net, family === 4 ? 'ipv4' : 'ipv6')
    else networks.addSubnet(net, Number(prefix), family === 4 ? 'ipv4' : 'ipv6')
  }
  return {
    allows(hostname, address) {
      if (isPublicAddress(address)) return true
      if (names.has(hostname.toLowerCase().replace(/^\[|\]$/g, ''))) return true
      const plain = unmapIPv4(address)
      const family = isIP(plain)
      return family !== 0 && networks.check(plain, family === 4 ? 'ipv4' : 'ipv6')
    },
  }
}

export class FetchRefused extends Error {}

export interface FetchOptions {
  policy: AddressPolicy
  timeoutMs?: number
  maxBytes?: number
}

export function jsonFetch(options: FetchOptions): JsonFetch {
  const timeoutMs = options.timeoutMs ?? 30_000
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024
  return async (target, headers) => {
    const url = new URL(target)
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new FetchRefused(`${url.protocol} URLs are not fetched`)
    const host = url.hostname.replace(/^\[|\]$/g, '')
    const answers = await lookup(host, { all: true })
    const refused = answers.find((a) => !options.policy.allows(host, a.address))
    if (answers.length === 0 || refused) {
      throw new FetchRefused(
        `${host} resolves to ${refused?.address ?? 'nothing'}, which is not allowed (IMPORT_ALLOWED_HOSTS)`,
      )
    }
    const pinned = answers[0]!
    const pin: LookupFunction = (_host, opts, callback) => {
      if ((opts as { all?: boolean }).all) callback(null, [pinned])
      else callback(null, pinned.address, pinned.family)
    }
    const { status, body } = await new Promise<{ status: number; body: string }>(
      (resolve, reject) => {
        const client = url.protocol === 'https:' ? https : http
        const request = client.request(url, { lookup: pin, agent: false, headers }, (response) => {
          const chunks: Buffer[] = []
          let size = 0
          response.on('data', (chunk: Buffer) => {
            size += chunk.length
            if (size > maxBytes) {
              request.destroy(new Error(`${url.origin} answered more than ${maxBytes} bytes`))
              return
            }
            chunks.push(chunk)
          })
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          )
          response.on('error', reject)
        })
        request.setTimeout(timeoutMs, () =>
          request.destroy(new Error(`${url.origin} gave no answer within ${timeoutMs} ms`)),
        )
        request.on('error', reject)
        request.end()
      },
    )
    if (status < 200 || status > 299) {
      throw new Error(`${url.origin}${url.pathname} answered ${status}`)
    }
    try {
      return JSON.parse(body) as unknown
    } catch {
      throw new Error(`${url.origin}${url.pathname} did not answer JSON`)
    }
  }
}
