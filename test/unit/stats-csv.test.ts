import { describe, expect, it } from 'vitest'
import { csvField, csvFilename, linkHeader, statsCsv } from '../../src/stats/csv.js'

describe('statistics as CSV', () => {
  it('has a value,count header, one CRLF line a row, and unknown values as empty fields', () => {
    expect(
      statsCsv([
        { value: 'DE', count: 12 },
        { value: null, count: 3 },
      ]),
    ).toBe('value,count\r\nDE,12\r\n,3\r\n')
    expect(statsCsv([])).toBe('value,count\r\n')
  })

  it.each([
    ['plain.example', 'plain.example'],
    ['2026-04-01', '2026-04-01'],
    ['OS X', 'OS X'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
    ['cr\rhere', '"cr\rhere"'],
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['a=b', 'a=b'],
  ])('writes %j as %j', (value, field) => {
    expect(csvField(value)).toBe(field)
  })

  it('names the file after the link, the name, the period and the page', () => {
    const period = { from: '2026-04-01', to: '2026-04-30' }
    expect(csvFilename(12, 'country', period, 1)).toBe('stats-12-country-2026-04-01-2026-04-30.csv')
    expect(csvFilename(12, 'country', period, 3)).toBe(
      'stats-12-country-2026-04-01-2026-04-30-page-3.csv',
    )
  })

  it('gives the page links as an RFC 8288 Link header, leaving out missing ones', () => {
    expect(
      linkHeader({
        first: 'http://a/?page=1',
        last: 'http://a/?page=3',
        prev: null,
        next: 'http://a/?page=2',
      }),
    ).toBe(
      '<http://a/?page=1>; rel="first", <http://a/?page=3>; rel="last", <http://a/?page=2>; rel="next"',
    )
  })
})
