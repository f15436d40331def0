/** The utm_* parameters written into and read from a destination URL's query. */
import { describe, expect, it } from 'vitest'
import { mergeUtm, readUtm } from '../../src/utm/query.js'
import { UTM_PARAMETERS } from '../../src/utm/schema.js'

const merge = (url: string, given: Record<string, string>) => mergeUtm(url, given, UTM_PARAMETERS)

describe('mergeUtm', () => {
  it.each([
    [
      'appends to a URL without a query',
      'https://a.example/p',
      { utm_source: 'news' },
      'https://a.example/p?utm_source=news',
    ],
    [
      'appends after other parameters, in the parameters’ order',
      'https://a.example/?b=2&a=1',
      { utm_medium: 'email', utm_source: 'news' },
      'https://a.example/?b=2&a=1&utm_source=news&utm_medium=email',
    ],
    [
      'replaces in place, keeping the order',
      'https://a.example/?utm_source=old&x=1',
      { utm_source: 'new' },
      'https://a.example/?utm_source=new&x=1',
    ],
    [
      'removes an emptied parameter, and every repeat of it',
      'https://a.example/?utm_source=a&x=1&utm_source=b',
      { utm_source: '' },
      'https://a.example/?x=1',
    ],
    [
      'drops the ? when nothing is left',
      'https://a.example/p?utm_term=t',
      { utm_term: '' },
      'https://a.example/p',
    ],
    [
      'keeps the fragment',
      'https://a.example/p?x=1#top',
      { utm_campaign: 'spring' },
      'https://a.example/p?x=1&utm_campaign=spring#top',
    ],
    [
      'keeps a fragment with a ? in it',
      'https://a.example/p#a?b',
      { utm_source: 's' },
      'https://a.example/p?utm_source=s#a?b',
    ],
    [
      'encodes values',
      'https://a.example/',
      { utm_campaign: 'spring sale & more' },
      'https://a.example/?utm_campaign=spring%20sale%20%26%20more',
    ],
    [
      'keeps other pairs byte for byte',
      'https://a.example/?q=a+b&r=%7E&&flag',
      { utm_source: 's' },
      'https://a.example/?q=a+b&r=%7E&&flag&utm_source=s',
    ],
    [
      'reads encoded names',
      'https://a.example/?utm%5Fsource=x',
      { utm_source: 'y' },
      'https://a.example/?utm_source=y',
    ],
    [
      'leaves parameters not given alone',
      'https://a.example/?utm_medium=m',
      { utm_source: 's' },
      'https://a.example/?utm_medium=m&utm_source=s',
    ],
    [
      'leaves a URL unchanged when nothing changes',
      'https://a.example/?utm_source=a%20b#x',
      { utm_source: 'a b', utm_medium: '' },
      'https://a.example/?utm_source=a%20b#x',
    ],
    [
      'ignores names that are not utm parameters',
      'https://a.example/?utm_id=1',
      { utm_id: '' },
      'https://a.example/?utm_id=1',
    ],
  ])('%s', (_title, url, given, expected) => {
    expect(merge(url, given)).toBe(expected)
  })
})

describe('readUtm', () => {
  it('reads the first value of each parameter, decoded', () => {
    expect(
      readUtm(
        'https://a.example/?utm_source=a+b&x=1&utm_source=c&utm_medium=%E2%9C%93&utm_term#utm_content=no',
        UTM_PARAMETERS,
      ),
    ).toEqual({ utm_source: 'a b', utm_medium: '✓', utm_term: '' })
  })

  it('reads nothing from a URL without a query, and survives bad escapes', () => {
    expect(readUtm('https://a.example/p', UTM_PARAMETERS)).toEqual({})
    expect(readUtm('https://a.example/?utm_source=%E2%', UTM_PARAMETERS)).toEqual({
      utm_source: '%E2%',
    })
  })

  it('is self-contained: its source text runs on its own (the dashboard script embeds it)', () => {
    const run = new Function(`return (${mergeUtm.toString()})`)() as typeof mergeUtm
    expect(run('https://a.example/?x=1', { utm_source: 's' }, UTM_PARAMETERS)).toBe(
      'https://a.example/?x=1&utm_source=s',
    )
  })
})
