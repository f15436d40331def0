/**
 * What the stats page shows, made from a period's overview: names for country and language
 * codes (with the code beside them), words for unknown values, chart bars, and links to the
 * usual periods. Pure: the page renderer only lays it out.
 */
import { splitPlace } from '../clicks/aggregate.js'
import type { StatsPageInput, StatsTable } from '../pages/index.js'
import type { StatsOverview, TopDimension } from './overview.js'
import { lastDays } from './period.js'
import { geoipCredit } from '../visitors/geoip.js'

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' })
const languages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' })

function nameOf(names: Intl.DisplayNames, code: string): string {
  try {
    return names.of(code) ?? code
  } catch {
    return code
  }
}

interface Labels {
  title: string
  column: string
  unknown: string
  label(value: string): { label: string; detail: string | null }
}

const plain = (value: string) => ({ label: value, detail: null })

/** A region or city: its name, with its country's code beside it. */
const place = (value: string) => {
  const { name, country } = splitPlace(value)
  return { label: name, detail: country }
}

const SOURCES: Record<string, string> = { qr: 'QR code scans', link: 'Link clicks' }

const TABLES: Record<TopDimension, Labels> = {
  country: {
    title: 'Countries',
    column: 'Country',
    unknown: 'Unknown',
    label: (code) => ({ label: nameOf(regions, code), detail: code }),
  },
  referrer: {
    title: 'Referrers',
    column: 'Referrer',
    unknown: 'Direct, or not known',
    label: plain,
  },
  platform: { title: 'Platforms', column: 'Platform', unknown: 'Other or unknown', label: plain },
  browser: { title: 'Browsers', column: 'Browser', unknown: 'Other or unknown', label: plain },
  device: {
    title: 'Devices',
    column: 'Device',
    unknown: 'Unknown',
    label: (device) => plain(device.charAt(0).toUpperCase() + device.slice(1)),
  },
  language: {
    title: 'Languages',
    column: 'Language',
    unknown: 'Not sent',
    label: (code) => ({ label: nameOf(languages, code), detail: code }),
  },
  region: { title: 'Regions', column: 'Region', unknown: 'Unknown', label: place },
  city: { title: 'Cities', column: 'City', unknown: 'Unknown', label: place },
  source: {
    title: 'QR scans and link clicks',
    column: 'Source',
    unknown: 'Before sources were counted',
    label: (source) => ({ label: SOURCES[source] ?? source, detail: null }),
  },
  destination: {
    title: 'Destinations',
    column: 'Sent to',
    unknown: 'Before destinations were counted',
    label: plain,
  },
  utm_source: { title: 'UTM sources', column: 'utm_source', unknown: 'None', label: plain },
  utm_medium: { title: 'UTM media', column: 'utm_medium', unknown: 'None', label: plain },
  utm_campaign: { title: 'UTM campaigns', column: 'utm_campaign', unknown: 'None', label: plain },
}

/** A country's English name (`Germany`), or its code when there is none. */
export function countryName(code: string): string {
  return nameOf(regions, code)
}

/** The top values of each dimension, labelled, for the stats pages' tables. */
export function statsTables(overview: StatsOverview): StatsTable[] {
  return overview.top.map(({ dimension, rows, values }) => {
    const labels = TABLES[dimension]
    return {
      id: `top-${dimension}`,
      title: labels.title,
      column: labels.column,
      rows: rows.map((r) => ({
        ...(r.value === '' ? { label: labels.unknown, detail: null } : labels.label(r.value)),
        unknown: r.value === '',
        count: r.count,
      })),
      values,
      // One credit for the location data, under the countries (regions and cities come from the same data).
      geoAttribution: dimension === 'country' ? geoipCredit() : null,
    }
  })
}

/** The periods the page offers, ending today: 7, 30, 90 and 365 days. */
export const PERIOD_CHOICES = [7, 30, 90, 365] as const

export interface StatsPageLink {
  alias: string
  shortUrl: string
  /** Shown only when the link has no password (the preview shows it then too). */
  title: string | null
}

export function statsPageInput(
  link: StatsPageLink,
  overview: StatsOverview,
  today: string,
): StatsPageInput {
  const { period } = overview
  return {
    shortUrl: link.shortUrl,
    title: link.title,
    previewUrl: `${link.shortUrl}+`,
    period,
    periods: PERIOD_CHOICES.map((days) => {
      const choice = lastDays(days, today)
      return {
        label: `Last ${days} days`,
        href: `/${link.alias}/stats?from=${choice.from}&to=${choice.to}`,
        current: choice.from === period.from && choice.to === period.to,
      }
    }),
    clicks: overview.clicks,
    visitors: overview.visitors,
    scans: overview.scans,
    allTime: overview.allTime,
    days: overview.days.map((d) => ({ label: d.day, value: d.clicks })),
    hours: overview.hours.map((h) => ({ label: `${h.hour}:00`, value: h.clicks })),
    // Where visits were sent stays the owner's: the public page never names a destination.
    tables: statsTables(overview).filter((table) => table.id !== 'top-destination'),
  }
}
