/** Address classes: which IP addresses are public, and how IPv4-mapped IPv6 reads. */
import { BlockList, isIP } from 'node:net'

const nonPublic = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonPublic.addSubnet(net, prefix, 'ipv4')
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(net, prefix, 'ipv6')
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; other addresses unchanged. */
export function unmapIPv4(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address
}

export function isPublicAddress(address: string): boolean {
  const plain = unmapIPv4(address)
  const family = isIP(plain)
  if (family === 0) return false
  return !nonPublic.check(plain, family === 4 ? 'ipv4' : 'ipv6')
}
