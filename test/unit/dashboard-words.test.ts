import { describe, expect, it } from 'vitest'
import { expiryWords } from '../../src/dashboard/link-form-summaries.js'
import { linkNaming, peoplesWords } from '../../src/dashboard/messages.js'
import { withScheme } from '../../src/dashboard/shorten-box.js'

describe('the dashboard’s words', () => {
  it('adds https:// to a URL typed without a scheme, and leaves a scheme alone', () => {
    expect(withScheme('example.org/x')).toBe('https://example.org/x')
    expect(withScheme('  example.org:8080/x ')).toBe('https://example.org:8080/x')
    expect(withScheme('//example.org/x')).toBe('https://example.org/x')
    expect(withScheme('HTTP://example.org')).toBe('HTTP://example.org')
    expect(withScheme('mailto:ada@example.org')).toBe('mailto:ada@example.org')
    expect(withScheme('   ')).toBe('')
  })

  it('names the label in a message, and keeps what no rule knows with the label in it', () => {
    expect(peoplesWords('The url field is required.', '“Destination URL”')).toBe(
      'Fill in “Destination URL”.',
    )
    expect(peoplesWords('The expiration url field cannot wait.', '“Once expired”')).toBe(
      '“Once expired” cannot wait.',
    )
    expect(peoplesWords('Something else entirely.', '“X”')).toBe('Something else entirely.')
    expect(linkNaming('country.2.value')).toBe('the “Destination” of country 3')
    expect(
      peoplesWords(
        'The country.2.value field must be a valid URL.',
        linkNaming('country.2.value')!,
      ),
    ).toBe(
      'The “Destination” of country 3 must be a web address, such as https://example.org/page.',
    )
    expect(linkNaming('unknown')).toBeUndefined()
    // An empty field is "at least 1 characters" to the API: people are told to fill it in.
    expect(peoplesWords('The tag field must be at least 1 characters.', '“Tag”')).toBe(
      'Fill in “Tag”.',
    )
    expect(peoplesWords('The name field must be at least 3 characters.', '“Name”')).toBe(
      '“Name” is too short: at least 3 characters.',
    )
  })

  it('writes an expiry as people read it', () => {
    expect(expiryWords('2026-12-03', '18:00')).toBe('3 Dec 2026, 18:00')
    expect(expiryWords('2026-12-03', '')).toBe('3 Dec 2026')
    expect(expiryWords('soon', '18:00')).toBeNull()
  })
})
