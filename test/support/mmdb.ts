/**
 * A small MaxMind DB (mmdb) writer for tests: a few networks with their records, in the format
 * mmdb-lib reads (MaxMind DB format 2.0, 32-bit records). IPv4 networks in an IPv6 database sit
 * under `::/96`, where readers look them up. Networks must not overlap.
 */
import { isIPv4 } from 'node:net'

type Value = string | number | boolean | Value[] | { [key: string]: Value }

function control(type: number, size: number): Buffer {
  const extended = type > 7
  const head = (extended ? 0 : type) << 5
  let sizeBits: number
  let extra: Buffer
  if (size < 29) {
    sizeBits = size
    extra = Buffer.alloc(0)
  } else if (size < 285) {
    sizeBits = 29
    extra = Buffer.from([size - 29])
  } else if (size < 65_821) {
    sizeBits = 30
    extra = Buffer.alloc(2)
    extra.writeUInt16BE(size - 285)
  } else {
    sizeBits = 31
    extra = Buffer.alloc(3)
    extra.writeUIntBE(size - 65_821, 0, 3)
  }
  const parts: Buffer[] = [Buffer.from([head | sizeBits])]
  if (extended) parts.push(Buffer.from([type - 7]))
  parts.push(extra)
  return Buffer.concat(parts)
}

function unsigned(type: number, n: number): Buffer {
  const bytes: number[] = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256)
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)])
}

function encode(value: Value): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8')
    return Buffer.concat([control(2, bytes.length), bytes])
  }
  if (typeof value === 'boolean') return control(14, value ? 1 : 0)
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0 && value < 2 ** 32) return unsigned(6, value)
    const bytes = Buffer.alloc(8)
    bytes.writeDoubleBE(value)
    return Buffer.concat([control(3, 8), bytes])
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)])
  const entries = Object.entries(value)
  return Buffer.concat([
    control(7, entries.length),
    ...entries.flatMap(([k, v]) => [encode(k), encode(v)]),
  ])
}

function bitsOf(address: string, ipVersion: 4 | 6): number[] {
  const bytes: number[] = []
  if (isIPv4(address)) {
    if (ipVersion === 6) bytes.push(...Array<number>(12).fill(0))
    bytes.push(...address.split('.').map(Number))
  } else {
    const [head, tail = ''] = address.split('::')
    const h = head ? head.split(':') : []
    const t = tail ? tail.split(':') : []
    const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t]
    for (const g of groups) {
      const n = parseInt(g, 16)
      bytes.push(n >> 8, n & 255)
    }
  }
  return bytes.flatMap((b) => Array.from({ length: 8 }, (_, i) => (b >> (7 - i)) & 1))
}

type Rec = { node: number } | { data: number } | null

/**
 * An mmdb file: `networks` maps `address/prefix` to its record. `ipVersion` 6 (default) holds
 * both families; 4 holds IPv4 only (as DB-IP's `-ipv4` files).
 */
export function mmdb(
  networks: Record<string, Value>,
  options: { ipVersion?: 4 | 6; databaseType?: string } = {},
): Buffer {
  const ipVersion = options.ipVersion ?? 6
  const nodes: [Rec, Rec][] = [[null, null]]
  const data: Buffer[] = []
  let dataSize = 0
  for (const [network, record] of Object.entries(networks)) {
    const [address, prefix] = network.split('/') as [string, string]
    const shift = ipVersion === 6 && isIPv4(address) ? 96 : 0
    const length = Number(prefix) + shift
    const bits = bitsOf(address, ipVersion)
    const encoded = encode(record)
    const offset = dataSize
    data.push(encoded)
    dataSize += encoded.length
    let current = 0
    for (let depth = 0; depth < length; depth++) {
      const bit = bits[depth]!
      const node = nodes[current]!
      if (depth === length - 1) {
        node[bit] = { data: offset }
        break
      }
      const next = node[bit] ?? null
      if (next !== null && 'node' in next) {
        current = next.node
      } else {
        nodes.push([null, null])
        node[bit] = { node: nodes.length - 1 }
        current = nodes.length - 1
      }
    }
  }
  const nodeCount = nodes.length
  const tree = Buffer.alloc(nodeCount * 8)
  const value = (r: Rec) =>
    r === null ? nodeCount : 'node' in r ? r.node : nodeCount + 16 + r.data
  nodes.forEach(([left, right], i) => {
    tree.writeUInt32BE(value(left), i * 8)
    tree.writeUInt32BE(value(right), i * 8 + 4)
  })
  const metadata = encode({
    node_count: nodeCount,
    record_size: 32,
    ip_version: ipVersion,
    database_type: options.databaseType ?? 'Test-City',
    languages: ['en'],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: 1_780_000_000,
    description: { en: 'test data' },
  })
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    ...data,
    Buffer.from([0xab, 0xcd, 0xef]),
    Buffer.from('MaxMind.com'),
    metadata,
  ])
}
