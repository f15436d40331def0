import { describe, expect, it } from 'vitest'
import { FieldErrors } from '../../src/shared/errors.js'
import { daysIn, eachDay, resolvePeriod, type PeriodInput } from '../../src/stats/period.js'
import { spansOf } from '../../src/stats/spans.js'

const TODAY = '2026-04-10'

function resolve(input: PeriodInput) {
  const errors = new FieldErrors()
  return { period: resolvePeriod(input, TODAY, errors), errors: errors.messages }
}

describe('the period of a statistic', () => {
  it.each([
    [{}, { from: '2026-03-12', to: '2026-04-10' }],
    [{ from: '2026-04-01' }, { from: '2026-04-01', to: '2026-04-10' }],
    [{ to: '2026-01-31' }, { from: '2026-01-02', to: '2026-01-31' }],
    [
      { from: '2026-04-10', to: '2026-04-10' },
      { from: '2026-04-10', to: '2026-04-10' },
    ],
    [
      { from: '2024-01-01', to: '2024-12-31' },
      { from: '2024-01-01', to: '2024-12-31' },
    ],
    [
      { from: '2099-12-01', to: '2099-12-31' },
      { from: '2099-12-01', to: '2099-12-31' },
    ],
    [{ to: '2000-01-05' }, { from: '2000-01-01', to: '2000-01-05' }],
  ])('resolves %j to %j', (input, period) => {
    expect(resolve(input)).toEqual({ period, errors: {} })
  })

  it.each([
    [{ from: '2026-02-29' }, { from: ['The from field must match the format Y-m-d.'] }],
    [{ to: '26-04-01' }, { to: ['The to field must match the format Y-m-d.'] }],
    [{ to: '2026-04-01 ' }, { to: ['The to field must match the format Y-m-d.'] }],
    [
      { from: '1999-12-31' },
      { from: ['The from field must be a date after or equal to 2000-01-01.'] },
    ],
    [{ to: '2100-01-01' }, { to: ['The to field must be a date before or equal to 2099-12-31.'] }],
    [{ from: '2026-04-11' }, { from: ['The from field must be a date before or equal to to.'] }],
    [
      { from: '2025-04-08', to: '2026-04-09' },
      {
        from: [
          'The from field must not be more than 365 days before to (a period is at most 366 days).',
        ],
      },
    ],
    [
      { from: 'x', to: 'y' },
      {
        from: ['The from field must match the format Y-m-d.'],
        to: ['The to field must match the format Y-m-d.'],
      },
    ],
  ])('refuses %j', (input, errors) => {
    expect(resolve(input)).toEqual({ period: null, errors })
  })

  it('counts and lists its days, leap days included', () => {
    expect(daysIn({ from: '2024-01-01', to: '2024-12-31' })).toBe(366)
    expect(eachDay({ from: '2024-02-27', to: '2024-03-01' })).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ])
  })
})

describe('the rows a period reads', () => {
  it.each([
    // Whole months from the monthly rows, the days around them from the daily rows.
    [
      '2025-11-22',
      '2026-11-22',
      [
        ['referrer/month', '2025-12', '2026-10'],
        ['referrer', '2025-11-22', '2025-11-30'],
        ['referrer', '2026-11-01', '2026-11-22'],
      ],
    ],
    ['2026-03-01', '2026-03-31', [['referrer/month', '2026-03', '2026-03']]],
    ['2026-02-01', '2026-03-31', [['referrer/month', '2026-02', '2026-03']]],
    [
      '2024-02-01',
      '2024-03-15',
      [
        ['referrer/month', '2024-02', '2024-02'],
        ['referrer', '2024-03-01', '2024-03-15'],
      ],
    ],
    ['2026-03-02', '2026-03-31', [['referrer', '2026-03-02', '2026-03-31']]],
    ['2026-03-01', '2026-03-30', [['referrer', '2026-03-01', '2026-03-30']]],
    ['2026-02-15', '2026-03-14', [['referrer', '2026-02-15', '2026-03-14']]],
    ['2026-04-10', '2026-04-10', [['referrer', '2026-04-10', '2026-04-10']]],
    [
      '2025-12-31',
      '2026-02-01',
      [
        ['referrer/month', '2026-01', '2026-01'],
        ['referrer', '2025-12-31', '2025-12-31'],
        ['referrer', '2026-02-01', '2026-02-01'],
      ],
    ],
  ])('%s to %s', (from, to, spans) => {
    expect(spansOf({ from, to }, 'referrer', 'referrer/month')).toEqual(
      spans.map(([dimension, a, b]) => ({ dimension, from: a, to: b })),
    )
  })

  it('reads only daily rows for a dimension without monthly ones', () => {
    expect(spansOf({ from: '2025-01-01', to: '2025-12-31' }, 'total', null)).toEqual([
      { dimension: 'total', from: '2025-01-01', to: '2025-12-31' },
    ])
  })
})
