import { describe, expect, it } from 'vitest'
import { normalise } from '../../src/http/body.js'
import { collectIssues, type SchemaIssue } from '../../src/http/validation.js'
import {
  expiryInstant,
  isReservedAlias,
  keyedList,
  rotationList,
} from '../../src/links/field-rules.js'
import { FieldErrors } from '../../src/shared/errors.js'
import { parseDomainName } from '../../src/shared/domain-name.js'
import { FORMATS, isHttpUrl } from '../../src/shared/formats.js'
import { isoMicro, zonedToUtc } from '../../src/shared/time.js'

describe('isoMicro', () => {
  it('writes every instant as toISOString does, with microseconds', () => {
    const instants = [
      0,
      1,
      999,
      1_764_000_000_123,
      Date.UTC(1000, 0, 1),
      Date.UTC(1000, 0, 1) - 1,
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      -1,
      Date.UTC(-5, 6, 7, 8, 9, 10, 11),
      8.64e15,
    ]
    // And a day's worth of milliseconds, minutes and months over the years in use.
    for (let i = 0; i < 5000; i++) instants.push(1_600_000_000_000 + i * 7_919_993_011)
    for (const ms of instants) {
      expect(isoMicro(ms)).toBe(new Date(ms).toISOString().replace(/Z$/, '000Z'))
    }
    expect(isoMicro(1_764_000_000_007)).toBe('2025-11-24T16:00:00.007000Z')
    expect(isoMicro(null)).toBeNull()
    expect(() => isoMicro(Number.NaN)).toThrow(RangeError)
  })
})

describe('http-url format', () => {
  it.each([
    ['https://example.com', true],
    ['http://example.com:8080/path?q=1#frag', true],
    ['HTTPS://EXAMPLE.COM', true],
    ['https://münchen.de/straße', true],
    ['http://[2001:db8::1]/', true],
    ['javascript:alert(1)', false],
    ['JaVaScRiPt:alert(1)', false],
    ['data:text/html,<b>x</b>', false],
    ['file:///etc/passwd', false],
    ['vbscript:msgbox', false],
    ['ftp://example.com', false],
    ['//example.com', false],
    ['example.com', false],
    ['https://', false],
    ['https://exa mple.com', false],
    [' https://example.com', false],
    ['https://example.com/\u0000', false],
    ['https://example.com/\n', false],
    ['http:/example.com', false],
  ])('%j → %s', (value, ok) => {
    expect(isHttpUrl(value)).toBe(ok)
  })
})

describe('domain names', () => {
  it.each([
    ['example.com', { name: 'example.com', url: 'https://example.com' }],
    ['Example.COM', { name: 'example.com', url: 'https://example.com' }],
    ['example.com/', { name: 'example.com', url: 'https://example.com' }],
    ['http://go.example.com', { name: 'go.example.com', url: 'http://go.example.com' }],
    ['HTTPS://go.example.com/', { name: 'go.example.com', url: 'https://go.example.com' }],
    ['bücher.de', { name: 'xn--bcher-kva.de', url: 'https://xn--bcher-kva.de' }],
    ['ＢÜCHER。de', { name: 'xn--bcher-kva.de', url: 'https://xn--bcher-kva.de' }],
    ['xn--bcher-kva.de', { name: 'xn--bcher-kva.de', url: 'https://xn--bcher-kva.de' }],
    ['1.example', { name: '1.example', url: 'https://1.example' }],
    ['a-b.c-d.example', { name: 'a-b.c-d.example', url: 'https://a-b.c-d.example' }],
    [
      `${'a'.repeat(63)}.com`,
      { name: `${'a'.repeat(63)}.com`, url: `https://${'a'.repeat(63)}.com` },
    ],
    [
      `${'a.'.repeat(125)}com`,
      { name: `${'a.'.repeat(125)}com`, url: `https://${'a.'.repeat(125)}com` },
    ],
    // Addresses, in every spelling a URL parser reads as one.
    ['127.0.0.1', null],
    ['http://127.0.0.1', null],
    ['2130706433', null],
    ['0x7f.1', null],
    ['0177.0.0.1', null],
    ['1.2.3.4.5', null],
    ['[::1]', null],
    ['http://[::1]', null],
    ['[2001:db8::1]', null],
    ['::1', null],
    // Ports, even the scheme's own.
    ['go.example.com:0', null],
    ['go.example.com:8080', null],
    ['https://go.example.com:443', null],
    ['http://localhost:8080', null],
    // Single labels, empty labels and a trailing dot.
    ['localhost', null],
    ['localhost.', null],
    ['example.com.', null],
    ['a..b', null],
    ['.example.com', null],
    ['example', null],
    ['com', null],
    // Hyphens at either end of a label, bad characters, bad punycode.
    ['-a.com', null],
    ['a-.com', null],
    ['a.-b.com', null],
    ['under_score.example.com', null],
    ['xn--zz.com', null],
    ['%41.example.com', null],
    ['exa mple.com', null],
    ['example.com\n', null],
    ['example.com\u0000', null],
    // Lengths: a label over 63, a name over 253.
    [`${'a'.repeat(64)}.com`, null],
    [`${'a.'.repeat(126)}com`, null],
    // Anything beyond a host.
    ['example.com/path', null],
    ['example.com//', null],
    ['example.com?x=1', null],
    ['example.com#x', null],
    ['user@example.com', null],
    ['http://user:pw@example.com', null],
    ['not a host', null],
    ['ftp://example.com', null],
    ['//example.com', null],
    ['', null],
  ])('%j → %j', (input, expected) => {
    expect(parseDomainName(input)).toEqual(expected)
  })
})

describe('date and time formats', () => {
  it.each([
    ['2026-02-28', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['26-01-01', false],
  ])('date %j → %s', (value, ok) => expect(FORMATS['date-ymd'](value)).toBe(ok))

  it.each([
    ['00:00', true],
    ['23:59', true],
    ['24:00', false],
    ['9:30', false],
    ['12:60', false],
    ['12:30:00', false],
  ])('time %j → %s', (value, ok) => expect(FORMATS['time-hm'](value)).toBe(ok))
})

describe('targeting lists', () => {
  it('keeps complete entries, drops empty ones, reports half entries and repeated keys by position', () => {
    const errors = new FieldErrors()
    const list = keyedList(
      'country',
      [
        { key: 'US', value: 'https://us.example.com' },
        { key: null, value: null },
        { key: 'DE', value: null },
        { key: null, value: 'https://x.example.com' },
        { key: 'US', value: 'https://again.example.com' },
        { key: 'FR', value: 'https://fr.example.com' },
      ],
      errors,
    )
    expect(list).toEqual([
      { key: 'US', value: 'https://us.example.com' },
      { key: 'FR', value: 'https://fr.example.com' },
    ])
    expect(errors.messages).toEqual({
      'country.2.value': ['The country.2.value field is required.'],
      'country.3.key': ['The country.3.key field is required.'],
      'country.4.key': ['The country.4.key field has a duplicate value.'],
    })
  })

  it('turns a list with nothing left into null (cleared)', () => {
    const errors = new FieldErrors()
    expect(keyedList('platform', [{ key: null, value: null }], errors)).toBeNull()
    expect(errors.empty).toBe(true)
    expect(rotationList([{ value: null }, {}])).toBeNull()
    expect(rotationList([{ value: 'https://a.example' }, { value: null }])).toEqual([
      { value: 'https://a.example' },
    ])
  })
})

describe('expiry instant', () => {
  it.each([
    ['2026-06-01', '12:00', 'UTC', '2026-06-01T12:00:00.000000Z'],
    ['2026-06-01', '12:00', 'Europe/Berlin', '2026-06-01T10:00:00.000000Z'],
    ['2026-01-15', '12:00', 'Europe/Berlin', '2026-01-15T11:00:00.000000Z'],
    ['2026-01-15', '23:30', 'America/New_York', '2026-01-16T04:30:00.000000Z'],
    ['2026-03-29', '02:30', 'Europe/Berlin', '2026-03-29T01:30:00.000000Z'],
    ['2026-10-25', '02:30', 'Europe/Berlin', '2026-10-25T00:30:00.000000Z'],
    ['2026-06-01', '00:00', 'Asia/Kolkata', '2026-05-31T18:30:00.000000Z'],
  ])('%s %s in %s is %s', (date, time, zone, iso) => {
    expect(isoMicro(zonedToUtc(date, time, zone))).toBe(iso)
  })

  it('needs date and time together, clears with both empty, and leaves alone when both are absent', () => {
    const errors = new FieldErrors()
    expect(expiryInstant(undefined, undefined, 'UTC', errors)).toBeUndefined()
    expect(expiryInstant(null, null, 'UTC', errors)).toBeNull()
    expect(errors.empty).toBe(true)
    const dateOnly = new FieldErrors()
    expect(expiryInstant('2026-06-01', undefined, 'UTC', dateOnly)).toBeUndefined()
    expect(dateOnly.messages).toEqual({
      expiration_time: ['The expiration time field is required when expiration date is present.'],
    })
    const timeOnly = new FieldErrors()
    expect(expiryInstant(null, '10:00', 'UTC', timeOnly)).toBeUndefined()
    expect(timeOnly.messages).toEqual({
      expiration_date: ['The expiration date field is required when expiration time is present.'],
    })
  })
})

describe('reserved aliases', () => {
  it.each([
    ['api', true],
    ['API', true],
    ['Stats', true],
    ['docs', true],
    ['apis', false],
    ['my-api', false],
  ])('%s → %s', (alias, reserved) => expect(isReservedAlias(alias)).toBe(reserved))
})

describe('schema failures as field messages', () => {
  const issue = (
    keyword: string,
    instancePath: string,
    params: Record<string, unknown>,
    data?: unknown,
  ): SchemaIssue => ({
    keyword,
    instancePath,
    params,
    ...(data === undefined ? {} : { data }),
  })
  it.each([
    [issue('required', '', { missingProperty: 'url' }), { url: ['The url field is required.'] }],
    [
      issue('type', '/domain_id', { type: 'integer' }, 'x'),
      { domain_id: ['The domain id field must be an integer.'] },
    ],
    [issue('type', '/url', { type: 'string' }, null), { url: ['The url field is required.'] }],
    [
      issue('type', '/country', { type: 'array,null' }, 5),
      { country: ['The country field must be an array.'] },
    ],
    [
      issue('enum', '/privacy', { allowedValues: [0, 1, 2] }),
      { privacy: ['The selected privacy is invalid.'] },
    ],
    [
      issue('maxLength', '/alias', { limit: 255 }),
      { alias: ['The alias field must not be greater than 255 characters.'] },
    ],
    [
      issue('maxItems', '/country', { limit: 100 }),
      { country: ['The country field must not have more than 100 items.'] },
    ],
    [
      issue('minimum', '/expiration_clicks', { limit: 0 }),
      { expiration_clicks: ['The expiration clicks field must be at least 0.'] },
    ],
    [
      issue('format', '/url', { format: 'http-url' }),
      { url: ['The url field must be a valid URL.'] },
    ],
    [
      issue('format', '/country/0/value', { format: 'http-url' }),
      { 'country.0.value': ['The country.0.value field must be a valid URL.'] },
    ],
    [
      issue('required', '/rotation/1', { missingProperty: 'value' }),
      { 'rotation.1.value': ['The rotation.1.value field is required.'] },
    ],
  ])('%j', (input, expected) => {
    expect(collectIssues([input]).messages).toEqual(expected)
  })
})

describe('body normalisation', () => {
  it.each([
    [{ a: '' }, { a: null }],
    [{ pixel_ids: [''] }, { pixel_ids: [] }],
    [{ pixel_ids: ['1', '', '2'] }, { pixel_ids: ['1', '2'] }],
    [
      { country: { '1': { key: 'US' }, '0': { key: 'DE' } } },
      { country: [{ key: 'DE' }, { key: 'US' }] },
    ],
    [{ country: [{ key: '', value: '' }] }, { country: [{ key: null, value: null }] }],
    [
      { n: 0, b: false },
      { n: 0, b: false },
    ],
  ])('%j → %j', (input, expected) => {
    expect(normalise(input)).toEqual(expected)
  })

  it('refuses nesting deeper than 16 levels', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 20; i++) deep = [deep]
    expect(() => normalise({ a: deep })).toThrow('The request body is nested too deeply.')
  })
})
