/**
 * The periods the dashboard's statistics of a link offer, ending today (UTC): the last 7, 30
 * and 90 days, this year, and all time (from the day the link was made). A link older than the
 * longest period (366 days) gets "Last 366 days" instead of "All time"; its all-time clicks
 * are shown beside any period anyway.
 */
import { daysIn, lastDays, MAX_PERIOD_DAYS, type Period } from './period.js'

export interface PeriodChoice {
  label: string
  period: Period
}

export function periodChoices(today: string, createdDay: string): PeriodChoice[] {
  const choices: PeriodChoice[] = [7, 30, 90].map((days) => ({
    label: `Last ${days} days`,
    period: lastDays(days, today),
  }))
  choices.push({ label: 'This year', period: { from: `${today.slice(0, 4)}-01-01`, to: today } })
  const since = { from: createdDay < today ? createdDay : today, to: today }
  choices.push(
    daysIn(since) <= MAX_PERIOD_DAYS
      ? { label: 'All time', period: since }
      : { label: `Last ${MAX_PERIOD_DAYS} days`, period: lastDays(MAX_PERIOD_DAYS, today) },
  )
  return choices
}
