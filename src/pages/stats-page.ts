/**
 * The statistics page of a link (`/<alias>/stats`): the period and links to other periods,
 * clicks, unique visitors and all-time clicks, clicks per day and per hour as server-drawn SVG
 * charts, and the top values of each dimension in tables (with the GeoIP data's attribution
 * under the countries). Sent with 200; the caller decides who may see it. Every stored value is
 * escaped by `markup`. `statsPeriodErrorPage` (422) explains a period that cannot be shown.
 */
import type { GeoipCredit } from '../visitors/geoip.js'
import { markup, type SafeHtml } from './html.js'
import { renderPage, type RenderedPage } from './layout.js'
import { safeHref, safeLocalHref } from './safe-values.js'
import { barChart, type ChartBar } from './svg-chart.js'

export interface StatsTableRow {
  label: string
  /** A code shown after the label (`DE` after Germany), or null. */
  detail: string | null
  unknown: boolean
  count: number
}

export interface StatsTable {
  id: string
  title: string
  /** The heading of the values' column (`Country`). */
  column: string
  rows: StatsTableRow[]
  /** How many values the dimension has in the period (the table shows the top ones). */
  values: number
  /** The credit of the GeoIP data, shown under the table (null: none). */
  geoAttribution: GeoipCredit | null
}

export interface StatsPageInput {
  shortUrl: string
  /** The link's title, or null (not shown for a password-protected link). */
  title: string | null
  /** The link's preview page (`<short URL>+`). */
  previewUrl: string
  period: { from: string; to: string }
  /** Other periods to show: paths on this origin (`/<alias>/stats?from=…&to=…`). */
  periods: { label: string; href: string; current: boolean }[]
  clicks: number
  visitors: number
  /** Clicks through the link's QR code. */
  scans: number
  allTime: number
  days: ChartBar[]
  hours: ChartBar[]
  tables: StatsTable[]
}

const numbers = new Intl.NumberFormat('en-US')
const share = (count: number, of: number) => (of > 0 ? `${((100 * count) / of).toFixed(1)} %` : '–')

function table(t: StatsTable, clicks: number): SafeHtml {
  const rows = t.rows.map(
    (r) =>
      markup`<tr><td${r.unknown ? markup` class="muted"` : null}>${r.label}${
        r.detail ? markup` <code class="muted">${r.detail}</code>` : null
      }</td><td class="num">${numbers.format(r.count)}</td><td class="num muted">${share(r.count, clicks)}</td></tr>\n`,
  )
  const more = t.values - t.rows.length
  return markup`<section class="top" id="${t.id}">
<h2>${t.title}</h2>
${
  t.rows.length === 0
    ? markup`<p class="muted">No clicks in this period.</p>`
    : markup`<table>
<thead><tr><th scope="col">${t.column}</th><th scope="col" class="num">Clicks</th><th scope="col" class="num">Share</th></tr></thead>
<tbody>
${rows}</tbody>
</table>`
}
${more > 0 ? markup`<p class="muted">and ${numbers.format(more)} more</p>` : null}
${t.geoAttribution ? geoCredit(t.geoAttribution) : null}
</section>\n`
}

function geoCredit(credit: GeoipCredit) {
  const licence = credit.licence
    ? markup` (<a href="${credit.licence.url}">${credit.licence.text}</a>)`
    : null
  return markup`<p class="muted small">${credit.lead} <a href="${credit.link.url}">${credit.link.text}</a>${licence}</p>`
}

export function statsPage(input: StatsPageInput): RenderedPage {
  const periods = input.periods.map((p) =>
    p.current
      ? markup`<strong aria-current="true">${p.label}</strong>`
      : markup`<a href="${safeLocalHref(p.href)}">${p.label}</a>`,
  )
  const body = markup`<h1>Statistics</h1>
<p class="muted"><code>${input.shortUrl}</code>${input.title ? markup` · ${input.title}` : null}</p>
<p>From <time>${input.period.from}</time> to <time>${input.period.to}</time> (UTC days)</p>
<nav class="periods" aria-label="Periods">${periods}</nav>
<div class="figures">
<p class="figure"><strong id="total-clicks">${numbers.format(input.clicks)}</strong> clicks</p>
<p class="figure"><strong id="unique-visitors">${numbers.format(input.visitors)}</strong> unique visitors</p>
<p class="figure"><strong id="qr-scans">${numbers.format(input.scans)}</strong> of the clicks QR code scans</p>
<p class="figure"><strong id="all-time-clicks">${numbers.format(input.allTime)}</strong> clicks all time</p>
</div>
<h2>Clicks per day</h2>
${barChart({ id: 'chart-days', title: 'Clicks per day', bars: input.days, unit: 'clicks' })}
<h2>Clicks per hour of the day (UTC)</h2>
${barChart({ id: 'chart-hours', title: 'Clicks per hour of the day (UTC)', bars: input.hours, unit: 'clicks' })}
<div class="tables">
${input.tables.map((t) => table(t, input.clicks))}</div>
<div class="actions"><a class="button secondary" href="${safeHref(input.previewUrl)}">Link preview</a></div>`
  return renderPage({ title: 'Statistics', body, wide: true })
}

/** Send with 422: the period asked for cannot be shown; `messages` say why. */
export function statsPeriodErrorPage(input: {
  messages: string[]
  resetHref: string
}): RenderedPage {
  const body = markup`<h1>Period not available</h1>
<ul class="error">
${input.messages.map((m) => markup`<li>${m}</li>\n`)}</ul>
<div class="actions"><a class="button" href="${safeLocalHref(input.resetHref)}">Show the last 30 days</a></div>`
  return renderPage({ title: 'Period not available', body })
}
