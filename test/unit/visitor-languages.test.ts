import { describe, expect, it } from 'vitest'
import { MAX_VISITOR_LANGUAGES, preferredLanguages } from '../../src/visitors/languages.js'

const table: { header: string | null | undefined; languages: string[]; why: string }[] = [
  { why: 'Chrome, US English', header: 'en-US,en;q=0.9', languages: ['en'] },
  {
    why: 'Chrome, German first',
    header: 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7',
    languages: ['de', 'en'],
  },
  {
    why: 'Firefox, French then German',
    header: 'fr-FR,fr;q=0.8,de-DE;q=0.5,de;q=0.3',
    languages: ['fr', 'de'],
  },
  { why: 'Safari, one language', header: 'ja', languages: ['ja'] },
  {
    why: 'q-values beat position',
    header: 'en;q=0.2, de;q=0.9, fr;q=0.5',
    languages: ['de', 'fr', 'en'],
  },
  {
    why: 'equal q-values keep their position',
    header: 'pt;q=0.5,es;q=0.5,it',
    languages: ['it', 'pt', 'es'],
  },
  { why: 'no q-value is q=1', header: 'nl;q=0.99, sv', languages: ['sv', 'nl'] },
  { why: 'q=1.000 is allowed', header: 'fi;q=0.5,da;q=1.000', languages: ['da', 'fi'] },
  { why: 'q=0 means not acceptable', header: 'en, de;q=0, fr;q=0.000', languages: ['en'] },
  { why: 'region subtags are dropped', header: 'de-CH', languages: ['de'] },
  { why: 'script and region subtags', header: 'zh-Hant-TW,zh;q=0.9', languages: ['zh'] },
  { why: 'case does not matter', header: 'EN-gb;Q=0.5,Fr', languages: ['fr', 'en'] },
  { why: '* is ignored', header: '*', languages: [] },
  { why: '* among others', header: 'es-MX,*;q=0.5,ca;q=0.4', languages: ['es', 'ca'] },
  {
    why: 'a language comes once, at its best place',
    header: 'en-US;q=0.3,de;q=0.8,en;q=0.9,de-AT',
    languages: ['de', 'en'],
  },
  { why: 'old codes are renamed', header: 'iw,in;q=0.5', languages: ['he', 'id'] },
  { why: 'three-letter codes have no ISO 639-1 code', header: 'fil,haw,de', languages: ['de'] },
  { why: 'unknown two-letter codes are skipped', header: 'xx,qq,en', languages: ['en'] },
  {
    why: 'malformed parts are skipped',
    header: 'en-,e n,de_DE,1a,fr;q=abc,it;q=2,es;q=0.5;level=1,pl;q=.5,;;,,nl;q=0.1',
    languages: ['nl'],
  },
  { why: 'spaces around parts', header: '  fr ;  q = 0.5 ,  en  ', languages: ['en', 'fr'] },
  { why: 'empty header', header: '', languages: [] },
  { why: 'missing header', header: undefined, languages: [] },
  { why: 'null header', header: null, languages: [] },
]

describe('Accept-Language', () => {
  it.each(table)('$why: $header → $languages', ({ header, languages }) => {
    expect(preferredLanguages(header)).toEqual(languages)
  })

  it('keeps at most 20 languages', () => {
    const codes = 'aa ab af am ar as az be bg bn bo br bs ca cs cy da de el en eo es et eu fa'
    const header = codes.split(' ').join(',')
    const languages = preferredLanguages(header)
    expect(languages).toHaveLength(MAX_VISITOR_LANGUAGES)
    expect(languages).toEqual(codes.split(' ').slice(0, 20))
  })

  it('reads only the first 512 characters, dropping the part cut in two', () => {
    // cut at 512, `fr;q=0.1` would read as `fr` (q=1) and jump to the front
    const header = 'it,de;q=0.5,' + 'x'.repeat(497) + ',fr;q=0.1'
    expect(header.slice(0, 512).endsWith(',fr')).toBe(true)
    expect(preferredLanguages(header)).toEqual(['it', 'de'])
    expect(preferredLanguages(header.replace('x', ''))).toEqual(['it', 'de'])
    expect(preferredLanguages('en,' + 'de-'.repeat(1_000_000))).toEqual(['en'])
  })
})
