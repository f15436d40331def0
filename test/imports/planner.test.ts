import { describe, expect, it } from 'vitest'
import { planRow, type PlanContext } from '../../src/imports/planner.js'
import { emptyRow, type SourceRow } from '../../src/imports/row.js'

const context = (over: Partial<PlanContext> = {}): PlanContext => ({
  onConflict: 'skip',
  timeZone: 'Europe/Berlin',
  defaultDomainId: 1,
  domainId: (name) => ({ 'short.test': 1, 'mine.example': 2 })[name],
  keyKnown: async (key) => key === 'seen',
  aliasTaken: async (domainId, alias) => domainId === 1 && ['taken', 'taken-2'].includes(alias),
  ...over,
})

const row = (fields: Partial<SourceRow>): SourceRow => ({
  ...emptyRow(7),
  url: 'https://example.com/',
  ...fields,
})

describe('planRow', () => {
  it.each<
    [string, Partial<SourceRow>, Partial<PlanContext>, [string, string | null, string | null]]
  >([
    [
      'a row imported before',
      { key: 'seen', url: null },
      {},
      ['duplicate', null, 'Imported before.'],
    ],
    ['no URL', { url: null }, {}, ['invalid', null, 'The url field is required.']],
    [
      'a data: URL',
      { url: 'data:text/html,x' },
      {},
      ['invalid', null, 'The url field must be a valid http or https URL.'],
    ],
    [
      'a reader problem',
      { problem: 'The row has 3 fields, the header 2.' },
      {},
      ['invalid', null, 'The row has 3 fields, the header 2.'],
    ],
    [
      'half an expiry',
      { alias: 'x', expirationDate: '2030-01-01' },
      {},
      ['invalid', 'x', 'The expiration time field is required when expiration date is present.'],
    ],
    [
      'another domain',
      { alias: 'x', domain: 'theirs.example' },
      {},
      ['unknown_domain', 'x', 'theirs.example is not a domain of yours.'],
    ],
    [
      'a taken alias, skipped',
      { alias: 'taken' },
      {},
      ['skipped', 'taken', 'The alias has already been taken.'],
    ],
    [
      'a reserved alias, skipped',
      { alias: 'Stats' },
      {},
      ['skipped', 'Stats', 'The alias is reserved.'],
    ],
    [
      'a reserved alias, renamed',
      { alias: 'docs' },
      { onConflict: 'rename' },
      ['renamed', 'docs-2', 'The alias docs is reserved.'],
    ],
    [
      'a taken alias, renamed past taken-2',
      { alias: 'taken' },
      { onConflict: 'rename' },
      ['renamed', 'taken-3', 'The alias taken has already been taken.'],
    ],
    [
      'the same alias on another domain of the owner',
      { alias: 'taken', domain: 'mine.example' },
      {},
      ['created', 'taken', null],
    ],
  ])('%s', async (_name, fields, over, [outcome, alias, message]) => {
    const plan = await planRow(row(fields), context(over))
    expect([plan.outcome, plan.alias, plan.message]).toEqual([outcome, alias, message])
  })

  it("carries the row's tags into the link and its reader's notes into the message", async () => {
    const plan = await planRow(
      row({
        alias: 'taken',
        tags: ['a', 'b'],
        notes: ['Only the first 25 tags were kept: 5 more left out.'],
      }),
      context({ onConflict: 'rename' }),
    )
    expect([plan.outcome, plan.alias, plan.message, plan.link?.tags]).toEqual([
      'renamed',
      'taken-3',
      'The alias taken has already been taken. Only the first 25 tags were kept: 5 more left out.',
      ['a', 'b'],
    ])
  })

  it('keeps the expiry in the owner time zone and the first 255 characters of a title', async () => {
    const plan = await planRow(
      row({
        alias: 'x',
        title: 'é'.repeat(300),
        expirationDate: '2030-01-01',
        expirationTime: '12:00',
      }),
      context(),
    )
    expect(plan.link).toMatchObject({
      domainId: 1,
      alias: 'x',
      title: 'é'.repeat(255),
      endsAt: Date.parse('2030-01-01T11:00:00Z'),
    })
  })
})
