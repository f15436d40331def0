/**
 * The statistics API's shapes, declared once for the TypeScript types, the validation, the
 * serialisation and the OpenAPI document: the names, the query and the `{value,count}` row.
 */
import { REQUEST_COLUMNS, SOURCE_COLUMNS } from '../clicks/columns.js'
import { monthlyOf, type Dimension, type ListDimension } from '../clicks/event.js'
import {
  FormattedString,
  IntegerEnum,
  Nullable,
  PER_PAGE,
  StringEnum,
  Type,
  type Static,
} from '../shared/schema.js'

export const STAT_NAMES = [
  'clicks',
  'clicks_hour',
  ...REQUEST_COLUMNS,
  'imported',
  ...SOURCE_COLUMNS,
] as const
export type StatName = (typeof STAT_NAMES)[number]

/** The names whose rows carry the country of their value (`{value, country, count}`). */
export const PLACE_NAMES: ReadonlySet<StatName> = new Set<StatName>(['region', 'city'])

export interface StatSource {
  /** The daily dimension the rows come from (`imported`: click totals brought by imports). */
  dimension: Dimension | 'imported'
  /** Its monthly rows, for the months a period covers whole (countries and referrers). */
  monthly: string | null
  /** What a row is: each stored value, or each day (the per-day clicks). */
  key: 'value' | 'day'
}

const list = (dimension: ListDimension): StatSource => ({
  dimension,
  monthly: monthlyOf(dimension),
  key: 'value',
})

export const STAT_SOURCES: Record<StatName, StatSource> = {
  clicks: { dimension: 'total', monthly: null, key: 'day' },
  clicks_hour: list('hour'),
  country: list('country'),
  platform: list('platform'),
  browser: list('browser'),
  device: list('device'),
  language: list('language'),
  referrer: list('referrer'),
  imported: { dimension: 'imported', monthly: null, key: 'day' },
  region: list('region'),
  city: list('city'),
  utm_source: list('utm_source'),
  utm_medium: list('utm_medium'),
  utm_campaign: list('utm_campaign'),
  destination: list('destination'),
  source: list('source'),
}

const date = (description: string) => Type.Optional(FormattedString('date-ymd', { description }))

export const StatsQuery = Type.Object({
  name: StringEnum(STAT_NAMES, {
    description:
      '`clicks` (per UTC day), `clicks_hour` (per UTC hour of the day, 00–23), `country`, ' +
      '`platform`, `browser`, `device`, `language`, `referrer`, `imported` (per UTC day: click ' +
      'totals brought in by an import, see docs/import.md), `region` and `city` (English names, ' +
      'each row with its `country`; known with a city database, GEOIP_DB), `utm_source`, ' +
      '`utm_medium`, `utm_campaign` (from the short URL’s query), `destination` (where the ' +
      'visit was sent), `source` (`qr`: through the QR code, `link`). Also accepted: `click` ' +
      '(= `clicks`) and `operating_system` (= `platform`), the names of today’s phpShort.',
  }),
  from: date('First day, `YYYY-MM-DD` (UTC), 2000-01-01 or later. Default: 29 days before `to`.'),
  to: date('Last day, `YYYY-MM-DD` (UTC), included. Default: today. At most 366 days in all.'),
  sort_by: Type.Optional(
    StringEnum(['count', 'value'] as const, { description: 'Default count. Ties: by value.' }),
  ),
  sort: Type.Optional(StringEnum(['desc', 'asc'] as const, { description: 'Default desc' })),
  per_page: Type.Optional(IntegerEnum(PER_PAGE, { description: 'Default 10' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'From 1' })),
  format: Type.Optional(
    StringEnum(['json', 'csv'] as const, {
      description: 'Default json; csv answers the same rows as text/csv.',
    }),
  ),
})
export type StatsQuery = Static<typeof StatsQuery>

export const StatRecord = Type.Object({
  value: Nullable(
    Type.String({
      description: 'A day, an hour, a code, a name, a host or a URL; null: unknown.',
    }),
  ),
  country: Type.Optional(
    Nullable(
      Type.String({
        description:
          '`region` and `city` only: the ISO 3166-1 alpha-2 code of the value’s country; null when unknown.',
      }),
    ),
  ),
  count: Type.Integer({ description: 'Clicks.' }),
})
export type StatRecord = Static<typeof StatRecord>
