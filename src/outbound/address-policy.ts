/**
 * Which addresses an outbound request may reach: public ones always; private, loopback,
 * link-local and reserved ones only when the operator names them (WEBHOOK_ALLOWED_HOSTS: host
 * names, addresses or CIDRs), or everywhere for tests of title fetching.
 */
import { BlockList, isIP } from 'node:net'
import { isPublicAddress, unmapIPv4 } from '../shared/addresses.js'

export interface AddressPolicy {
  /** Whether a connection to `address`, found for `hostname`, is allowed. */
  allows(hostname: string, address: string): boolean
}

export const PUBLIC_ONLY: AddressPolicy = {
  allows: (_hostname, address) => isPublicAddress(address),
}

export const ANY_ADDRESS: AddressPolicy = { allows: () => true }

/** The syntax of one WEBHOOK_ALLOWED_HOSTS entry: a host name, an address or a CIDR. */
export function isAllowListEntry(entry: string): boolean {
  const [net, prefix, extra] = entry.split('/')
  if (extra !== undefined || net === undefined) return false
  const family = isIP(net)
  if (prefix !== undefined) {
    const max = family === 4 ? 32 : family === 6 ? 128 : -1
    return /^\d{1,3}$/.test(prefix) && Number(prefix) <= max
  }
  return (
    family !== 0 ||
    /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(net)
  )
}

/** Public addresses, plus the named hosts, addresses and networks. */
export function allowListPolicy(entries: readonly string[]): AddressPolicy {
  if (entries.length === 0) return PUBLIC_ONLY
  const names = new Set<string>()
  const networks = new BlockList()
  for (const entry of entries) {
    const [net, prefix] = entry.split('/') as [string, string | undefined]
    const family = isIP(net)
    if (family === 0) names.add(net.toLowerCase().replace(/\.$/, ''))
    else if (prefix === undefined) networks.addAddress(net, family === 4 ? 'ipv4' : 'ipv6')
    else networks.addSubnet(net, Number(prefix), family === 4 ? 'ipv4' : 'ipv6')
  }
  return {
    allows(hostname, address) {
      if (isPublicAddress(address)) return true
      if (
        names.has(
          hostname
            .toLowerCase()
            .replace(/^\[|\]$/g, '')
            .replace(/\.$/, ''),
        )
      )
        return true
      const plain = unmapIPv4(address)
      const family = isIP(plain)
      return family !== 0 && networks.check(plain, family === 4 ? 'ipv4' : 'ipv6')
    },
  }
}

/**
 * Whether a URL names a forbidden place by itself, before any DNS lookup: an address literal
 * the policy refuses, or `localhost` (and names under `.localhost`) unless allowed by name.
 */
export function namesForbiddenAddress(url: URL, policy: AddressPolicy): boolean {
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()
  if (isIP(host) !== 0) return !policy.allows(host, host)
  if (host === 'localhost' || host.endsWith('.localhost')) return !policy.allows(host, '127.0.0.1')
  return false
}
