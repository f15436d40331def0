/**
 * The period statistics cover: whole UTC days from `from` to `to`, both included. Its defaults
 * (the 30 days ending today), its bounds and its longest length are checked here, for the API
 * and the stats page alike, into the contract's per-field messages.
 */
import type { FieldErrors } from '../shared/errors.js'
import { FORMAT_MESSAGES, FORMATS } from '../shared/formats.js'

export const EARLIEST_DAY = '2000-01-01'
export const LATEST_DAY = '2099-12-31'
/** The longest period, in days (a leap year). */
export const MAX_PERIOD_DAYS = 366
/** The period when neither date is given: the 30 days ending today. */
export const DEFAULT_PERIOD_DAYS = 30

export interface Period {
  from: string
  to: string
}

export interface PeriodInput {
  from?: string | undefined
  to?: string | undefined
}

const DAY_MS = 86_400_000

export function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS
}

export function dayAt(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10)
}

export function addDays(day: string, n: number): string {
  return dayAt(dayNumber(day) + n)
}

/** The UTC day of an instant. */
export function dayOfInstant(ms: number): string {
  return dayAt(Math.floor(ms / DAY_MS))
}

export function daysIn(period: Period): number {
  return dayNumber(period.to) - dayNumber(period.from) + 1
}

export function eachDay(period: Period): string[] {
  const first = dayNumber(period.from)
  return Array.from({ length: daysIn(period) }, (_, i) => dayAt(first + i))
}

/** The period ending `to` (default today) that is `days` long. */
export function lastDays(days: number, to: string): Period {
  return { from: addDays(to, 1 - days), to }
}

/** A date that is a real `YYYY-MM-DD` within the bounds, or the reason it is not. */
function checkDay(field: 'from' | 'to', value: string, errors: FieldErrors): boolean {
  if (errors.has(field)) return false
  if (value.length > 10 || !FORMATS['date-ymd'](value)) {
    errors.add(field, FORMAT_MESSAGES['date-ymd'](field))
  } else if (value < EARLIEST_DAY) {
    errors.add(field, `The ${field} field must be a date after or equal to ${EARLIEST_DAY}.`)
  } else if (value > LATEST_DAY) {
    errors.add(field, `The ${field} field must be a date before or equal to ${LATEST_DAY}.`)
  } else {
    return true
  }
  return false
}

/**
 * The period asked for: `to` defaults to today (UTC), `from` to 29 days before `to` (not before
 * EARLIEST_DAY). Reports
 * every wrong date; a reversed or too long period is reported on `from` (only a given `from`
 * can make one). Returns `null` when anything is wrong.
 */
export function resolvePeriod(
  input: PeriodInput,
  today: string,
  errors: FieldErrors,
): Period | null {
  const toOk = input.to === undefined || checkDay('to', input.to, errors)
  const fromOk = input.from === undefined || checkDay('from', input.from, errors)
  if (!toOk || !fromOk) return null
  const to = input.to ?? today
  const fallback = lastDays(DEFAULT_PERIOD_DAYS, to).from
  const period = { from: input.from ?? (fallback < EARLIEST_DAY ? EARLIEST_DAY : fallback), to }
  if (period.from > period.to) {
    errors.add('from', 'The from field must be a date before or equal to to.')
    return null
  }
  if (daysIn(period) > MAX_PERIOD_DAYS) {
    errors.add(
      'from',
      `The from field must not be more than ${MAX_PERIOD_DAYS - 1} days before to ` +
        `(a period is at most ${MAX_PERIOD_DAYS} days).`,
    )
    return null
  }
  return period
}
