import { describe, expect, it } from 'vitest'
import {
  countryOf,
  geoipBuiltAt,
  geoipCredit,
  preloadGeoip,
  useBundledGeoip,
  useGeoipDatabases,
} from '../../src/visitors/geoip.js'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mmdb } from '../support/mmdb.js'

/**
 * Expected countries are what the shipped DB-IP Lite data (package-lock's version) says, checked
 * against it, not what the owners' home countries are: DB-IP puts Google's and Cloudflare's
 * public-DNS IPv6 addresses in Canada and Cloudflare's 1.1.1.1 in Australia (APNIC's test range).
 */
const located: { address: string; country: string; what: string }[] = [
  { address: '8.8.8.8', country: 'US', what: 'Google Public DNS' },
  { address: '8.8.4.4', country: 'US', what: 'Google Public DNS' },
  { address: '9.9.9.9', country: 'US', what: 'Quad9' },
  { address: '2001:4860:4860::8888', country: 'CA', what: 'Google Public DNS over IPv6' },
  { address: '2606:4700:4700::1111', country: 'CA', what: 'Cloudflare DNS over IPv6' },
  { address: '1.1.1.1', country: 'AU', what: 'Cloudflare DNS (APNIC range)' },
  { address: '193.0.6.139', country: 'NL', what: 'RIPE NCC' },
  { address: '2001:67c:2e8:22::c100:68b', country: 'NL', what: 'RIPE NCC over IPv6' },
  { address: '212.58.244.22', country: 'GB', what: 'BBC' },
  { address: '80.67.169.12', country: 'FR', what: 'FDN DNS' },
  { address: '2a00:1450:4001:80b::200e', country: 'DE', what: 'Google Frankfurt' },
  { address: '77.88.8.8', country: 'RU', what: 'Yandex DNS' },
  { address: '114.114.114.114', country: 'CN', what: '114DNS' },
  { address: '223.5.5.5', country: 'CN', what: 'AliDNS' },
  { address: '202.12.27.33', country: 'JP', what: 'M-root (WIDE)' },
  { address: '168.126.63.1', country: 'KR', what: 'KT DNS' },
  { address: '200.160.0.8', country: 'BR', what: 'registro.br' },
  { address: '5.206.232.1', country: 'XK', what: 'Kosovo (XK: user-assigned, not in ISO 3166-1)' },
  { address: '::ffff:8.8.8.8', country: 'US', what: 'IPv4-mapped 8.8.8.8' },
  { address: '::FFFF:193.0.6.139', country: 'NL', what: 'IPv4-mapped, upper case' },
]

const unlocated: { address: string | null | undefined; what: string }[] = [
  { address: '127.0.0.1', what: 'loopback' },
  { address: '10.0.0.1', what: 'private' },
  { address: '172.16.5.4', what: 'private' },
  { address: '192.168.1.1', what: 'private' },
  { address: '100.64.0.1', what: 'carrier-grade NAT' },
  { address: '169.254.169.254', what: 'link-local' },
  { address: '192.0.2.1', what: 'documentation' },
  { address: '0.0.0.0', what: 'unspecified' },
  { address: '224.0.0.1', what: 'multicast' },
  { address: '255.255.255.255', what: 'broadcast' },
  { address: '::1', what: 'IPv6 loopback' },
  { address: '::', what: 'IPv6 unspecified' },
  { address: 'fe80::1', what: 'IPv6 link-local' },
  { address: 'fe80::1%eth0', what: 'IPv6 link-local with a zone' },
  { address: 'fc00::1', what: 'IPv6 unique local' },
  { address: '2001:db8::1', what: 'IPv6 documentation' },
  { address: '::ffff:127.0.0.1', what: 'IPv4-mapped loopback' },
  { address: '::ffff:10.0.0.1', what: 'IPv4-mapped private' },
  { address: 'not an address', what: 'garbage' },
  { address: '8.8.8', what: 'three octets' },
  { address: '8.8.8.256', what: 'octet out of range' },
  { address: '1.2.3.4.5', what: 'five octets' },
  { address: '8.8.8.8:443', what: 'with a port' },
  { address: '[2001:4860:4860::8888]', what: 'in brackets' },
  { address: ' 8.8.8.8', what: 'with a space' },
  { address: '::ffff:999.1.1.1', what: 'mapped garbage' },
  { address: 'x'.repeat(100_000), what: 'huge' },
  { address: '', what: 'empty' },
  { address: null, what: 'null' },
  { address: undefined, what: 'missing' },
]

describe('GeoIP', () => {
  it.each(located)('$address ($what) is in $country', ({ address, country }) => {
    expect(countryOf(address)).toBe(country)
  })

  it.each(unlocated)('$what address has no country', ({ address }) => {
    expect(countryOf(address)).toBeNull()
  })

  it('loads the data once and says when it was built', () => {
    preloadGeoip()
    preloadGeoip()
    expect(geoipBuiltAt().getUTCFullYear()).toBeGreaterThanOrEqual(2026)
  })

  it("credits the data in use: DB-IP's, MaxMind's notice for GeoLite2, none for GeoIP2", () => {
    const dbip = {
      lead: 'IP Geolocation by',
      link: { text: 'DB-IP', url: 'https://db-ip.com' },
      licence: { text: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' },
    }
    expect(geoipCredit()).toEqual(dbip)
    const dir = mkdtempSync(join(tmpdir(), 'slink-credit-'))
    const fileOf = (databaseType: string) => {
      const path = join(dir, `${databaseType}.mmdb`)
      writeFileSync(
        path,
        mmdb({ '81.2.69.0/24': { country: { iso_code: 'GB' } } }, { databaseType }),
      )
      return path
    }
    try {
      useGeoipDatabases([fileOf('GeoLite2-City')])
      expect(geoipCredit()).toEqual({
        lead: 'This product includes GeoLite2 data created by MaxMind, available from',
        link: { text: 'https://www.maxmind.com', url: 'https://www.maxmind.com' },
        licence: null,
      })
      useGeoipDatabases([fileOf('GeoIP2-City')])
      expect(geoipCredit()).toBeNull()
      useGeoipDatabases([fileOf('dbip-city-ipv4')])
      expect(geoipCredit()).toEqual(dbip)
    } finally {
      useBundledGeoip()
      rmSync(dir, { recursive: true, force: true })
    }
    expect(geoipCredit()).toEqual(dbip)
  })
})
