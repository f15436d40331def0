/**
 * What the dashboard's statistics pages (a link's, a tag's) do with their query: the period
 * (its presets, from the day the subject was made, and the form's values as sent), the numbers
 * of the statistics service the API uses, and each list as CSV (`{page}.csv`). A period or a
 * name that breaks the API's rules answers 422 with its messages.
 */
import type { FastifyReply } from 'fastify'
import { FieldErrors } from '../shared/errors.js'
import { CSV_CONTENT_TYPE, csvFilename, statsCsv } from '../stats/csv.js'
import type { StatsOverview } from '../stats/overview.js'
import { countryName, statsTables } from '../stats/page-data.js'
import { dayOfInstant, type Period } from '../stats/period.js'
import { periodChoices } from '../stats/period-choices.js'
import { PLACE_NAMES, STAT_NAMES, type StatName, type StatRecord } from '../stats/schema.js'
import type { StatsService } from '../stats/service.js'
import { downloadErrorPage } from './link-stats-page.js'
import { parameter, send, type Query } from './own-link.js'
import type { Viewer } from './shell.js'
import type { StatsView } from './stats-sections.js'

/** Whose statistics a page shows. */
export interface StatsSubject {
  /** The page's path; its lists download from `{page}.csv`. */
  page: string
  /** When it was made: "All time" starts on that day. */
  createdAt: number
  /** Names its CSV files (`stats-{fileId}-country-….csv`). */
  fileId: number | string
  overview(period: Period): Promise<StatsOverview>
  /** Every row of a statistic in the period. */
  all(name: StatName, period: Period): Promise<StatRecord[]>
}

const periodOf = (stats: StatsService, query: Query, errors: FieldErrors): Period | null =>
  stats.period({ from: parameter(query.from), to: parameter(query.to) }, errors)

/** The page's view of the period asked for: 200, or 422 with the period's messages. */
export async function statsView(
  stats: StatsService,
  query: Query,
  subject: StatsSubject,
): Promise<{ status: 200 | 422; view: StatsView }> {
  const errors = new FieldErrors()
  const shown = periodOf(stats, query, errors)
  const choices = periodChoices(stats.today(), dayOfInstant(subject.createdAt)).map((c) => ({
    label: c.label,
    href: `${subject.page}?from=${c.period.from}&to=${c.period.to}`,
    current: shown !== null && c.period.from === shown.from && c.period.to === shown.to,
  }))
  const asked = {
    from: parameter(query.from) ?? shown?.from ?? '',
    to: parameter(query.to) ?? shown?.to ?? '',
  }
  if (shown === null)
    return { status: 422, view: { asked, choices, shown: { errors: errors.messages } } }
  const overview = await subject.overview(shown)
  const countries = await subject.all('country', shown)
  return {
    status: 200,
    view: {
      asked,
      choices,
      shown: {
        period: shown,
        overview,
        tables: statsTables(overview),
        countries: new Map(countries.map((r) => [r.value ?? '', r.count])),
        nameOf: countryName,
      },
    },
  }
}

/** One list of the period as a CSV download, or a 422 page saying why it cannot be made. */
export async function sendStatsCsv(
  reply: FastifyReply,
  stats: StatsService,
  query: Query,
  subject: StatsSubject,
  viewer: Viewer,
): Promise<FastifyReply> {
  const errors = new FieldErrors()
  const name = parameter(query.name)
  if (name === undefined) errors.add('name', 'The name field is required.')
  else if (!(STAT_NAMES as readonly string[]).includes(name))
    errors.add('name', 'The selected name is invalid.')
  const shown = periodOf(stats, query, errors)
  if (shown === null || name === undefined || errors.has('name')) {
    const messages = Object.values(errors.messages).flat()
    return send(reply, 422, downloadErrorPage(viewer, { messages, back: subject.page }))
  }
  const rows = await subject.all(name as StatName, shown)
  return reply
    .code(200)
    .type(CSV_CONTENT_TYPE)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-disposition',
      `attachment; filename="${csvFilename(subject.fileId, name, shown, 1)}"`,
    )
    .send(statsCsv(rows, PLACE_NAMES.has(name as StatName)))
}
