/**
 * Which aggregate rows a period reads: the months that lie wholly inside it come from the
 * monthly rows (`<dimension>/month`, day `YYYY-MM`), the days before and after them from the
 * daily rows. A year is then about a dozen monthly rows and at most two months of daily rows per
 * value, instead of 366 daily rows. All are ranges of the primary key (link, dimension, day).
 */
import { addDays, type Period } from './period.js'

export interface Span {
  dimension: string
  /** A day `YYYY-MM-DD` for daily rows, a month `YYYY-MM` for monthly rows. */
  from: string
  to: string
}

const monthOf = (day: string) => day.slice(0, 7)

function lastDayOfMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10)
}

function nextMonth(month: string): string {
  return monthOf(addDays(lastDayOfMonth(month), 1))
}

function previousMonth(month: string): string {
  return monthOf(addDays(`${month}-01`, -1))
}

/** The spans of `period` for a dimension, with its monthly rows when it has them. */
export function spansOf(period: Period, daily: string, monthly: string | null): Span[] {
  const whole: Span = { dimension: daily, from: period.from, to: period.to }
  if (monthly === null) return [whole]
  const first = period.from.endsWith('-01') ? monthOf(period.from) : nextMonth(monthOf(period.from))
  const last =
    lastDayOfMonth(monthOf(period.to)) === period.to
      ? monthOf(period.to)
      : previousMonth(monthOf(period.to))
  if (first > last) return [whole]
  const spans: Span[] = [{ dimension: monthly, from: first, to: last }]
  if (period.from < `${first}-01`) {
    spans.push({ dimension: daily, from: period.from, to: addDays(`${first}-01`, -1) })
  }
  const after = addDays(lastDayOfMonth(last), 1)
  if (after <= period.to) spans.push({ dimension: daily, from: after, to: period.to })
  return spans
}
