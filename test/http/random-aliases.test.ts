/**
 * A link created without an alias gets a random one, written without looking it up first: the
 * unique index refuses one that is taken, and the create tries another. The draws are scripted
 * here (ServiceOptions.randomAlias) so that the taken one comes first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { API, createLink, expectStatus } from './helpers.js'

let t: TestApp
let script: string[] = []
const draws: number[] = []

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      randomAlias: (attempt) => {
        draws.push(attempt)
        return script.shift() ?? `spare${draws.length}`
      },
    },
  )
})
afterAll(() => t.close())

const count = async (alias: string) => {
  const res = await t.call('GET', `${API}/links?search=${alias}&search_by=alias`)
  expectStatus(res, 200)
  return (res.json() as { data: { alias: string }[] }).data.filter((l) => l.alias === alias).length
}

describe('random aliases', () => {
  it('draws again when the alias drawn is taken, and skips reserved words', async () => {
    const taken = await createLink(t, { alias: 'taken1' })
    draws.length = 0
    script = ['taken1', 'api', 'fresh1']
    const link = await createLink(t, { url: 'https://example.com/random' })
    expect(link.alias).toBe('fresh1')
    // The first draw, then the second try's two: `api` is a reserved word.
    expect(draws).toEqual([0, 1, 1])
    expect(await count('taken1')).toBe(1)
    expect(await count('fresh1')).toBe(1)
    const shown = await t.call('GET', `${API}/links/${taken.id}`)
    expect((shown.json() as { data: { url: string } }).data.url).toBe(taken.url)
  })

  it('answers 422 on the alias, not a server error, when every try is taken', async () => {
    await createLink(t, { alias: 'always' })
    draws.length = 0
    script = Array.from({ length: 30 }, () => 'always')
    const res = await t.call('POST', `${API}/links`, {
      form: { url: 'https://example.com/never', domain_id: t.defaultDomainId },
    })
    expectStatus(res, 422)
    expect(res.json()).toEqual({
      message: { alias: ['No free random alias was found: send an alias.'] },
      status: 422,
    })
    expect(draws).toHaveLength(30)
    expect(await count('always')).toBe(1)
  })

  it('still answers 422 when the alias a client chose is taken', async () => {
    await createLink(t, { alias: 'chosen1' })
    draws.length = 0
    const res = await t.call('POST', `${API}/links`, {
      form: { url: 'https://example.com/x', domain_id: t.defaultDomainId, alias: 'chosen1' },
    })
    expectStatus(res, 422)
    expect(res.json()).toEqual({
      message: { alias: ['The alias has already been taken.'] },
      status: 422,
    })
    expect(draws).toEqual([])
  })
})
