/**
 * What the statistics pages of the dashboard (a link's, a tag's) share: the period (presets
 * and a GET form for any other, so every view has its own address), clicks, unique visitors
 * and all-time clicks, clicks per day and per hour of the day (SVG charts), a world map of
 * countries and the top values of each dimension, every list also as CSV. A period that breaks
 * the rules shows the form again with the messages and nothing else. All numbers are by UTC
 * day and hour, as the statistics are stored.
 */
import type { FieldMessages } from '../shared/errors.js'
import type { StatsTable } from '../pages/stats-page.js'
import { barChart } from '../pages/svg-chart.js'
import { worldMap } from '../pages/world-map.js'
import type { StatsOverview } from '../stats/overview.js'
import type { Period } from '../stats/period.js'
import { geoipCredit, type GeoipCredit } from '../visitors/geoip.js'
import { Trusted } from './shell.js'

const numbers = new Intl.NumberFormat('en-US')
const share = (count: number, of: number) => (of > 0 ? `${((100 * count) / of).toFixed(1)} %` : '–')

export interface StatsView {
  /** The form's values as sent (empty when absent). */
  asked: { from: string; to: string }
  choices: { label: string; href: string; current: boolean }[]
  /** The period's statistics, or the reasons the period cannot be shown. */
  shown:
    | {
        period: Period
        overview: StatsOverview
        /** The tables of `overview.top`, in its order. */
        tables: StatsTable[]
        countries: ReadonlyMap<string, number>
        nameOf(code: string): string
      }
    | { errors: FieldMessages }
}

/** `{page}.csv?name=…&from=…&to=…` for one list of this period. */
function csvHref(page: string, name: string, period: Period): string {
  const query = new URLSearchParams({ name, from: period.from, to: period.to })
  return `${page}.csv?${query}`
}

function CsvLink(props: { href: string; what: string }) {
  return (
    <a class="small" href={props.href} download>
      CSV<span class="visually-hidden"> of {props.what}</span>
    </a>
  )
}

function GeoCredit(props: { credit: GeoipCredit | null }) {
  const { credit } = props
  if (credit === null) return null
  return (
    <p class="muted small geo-credit">
      {credit.lead} <a href={credit.link.url}>{credit.link.text}</a>
      {credit.licence ? (
        <>
          {' ('}
          <a href={credit.licence.url}>{credit.licence.text}</a>)
        </>
      ) : null}
    </p>
  )
}

function PeriodForm(props: { asked: StatsView['asked']; errors: FieldMessages | null }) {
  const field = (name: 'from' | 'to', label: string) => {
    const error = props.errors?.[name]?.join(' ')
    return (
      <div class="filter">
        <label for={`period-${name}`}>{label}</label>
        <input
          type="date"
          id={`period-${name}`}
          name={name}
          value={props.asked[name]}
          min="2000-01-01"
          max="2099-12-31"
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? `period-${name}-error` : undefined}
        />
        {error ? (
          <p class="field-error" id={`period-${name}-error`}>
            {error}
          </p>
        ) : null}
      </div>
    )
  }
  return (
    <form method="get" class="filters period-form" aria-label="Period">
      {field('from', 'From')}
      {field('to', 'To (included)')}
      <div class="filter">
        <button type="submit">Show</button>
      </div>
    </form>
  )
}

function TopTable(props: { table: StatsTable; clicks: number; csv: string }) {
  const { table } = props
  const more = table.values - table.rows.length
  return (
    <section class="panel" id={table.id} aria-labelledby={`${table.id}-heading`}>
      <div class="panel-head">
        <h2 id={`${table.id}-heading`}>{table.title}</h2>
        <CsvLink href={props.csv} what={table.title.toLowerCase()} />
      </div>
      {table.rows.length === 0 ? (
        <p class="muted">No clicks in this period.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{table.column}</th>
              <th scope="col" class="num">
                Clicks
              </th>
              <th scope="col" class="num">
                Share
              </th>
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, i) => (
              <tr key={i}>
                <td class={row.unknown ? 'muted' : undefined}>
                  {row.label}
                  {row.detail ? <code class="muted"> {row.detail}</code> : null}
                </td>
                <td class="num">{numbers.format(row.count)}</td>
                <td class="num muted">{share(row.count, props.clicks)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {more > 0 ? (
        <p class="muted small">and {numbers.format(more)} more (all of them in the CSV)</p>
      ) : null}
      <GeoCredit credit={table.geoAttribution} />
    </section>
  )
}

/**
 * The statistics sections of one page (`page`: its path; each list downloads as `{page}.csv`,
 * with the same period): the usual periods, a form for any other, then the totals, the charts,
 * the map and each dimension's table, or the reasons the period cannot be shown.
 */
export function StatsSections(props: { view: StatsView; page: string }) {
  const { view } = props
  const { shown } = view
  return (
    <>
      <nav class="periods" aria-label="Periods">
        {view.choices.map((c) =>
          c.current ? (
            <strong key={c.label} aria-current="true">
              {c.label}
            </strong>
          ) : (
            <a key={c.label} href={c.href}>
              {c.label}
            </a>
          ),
        )}
      </nav>
      <PeriodForm asked={view.asked} errors={'errors' in shown ? shown.errors : null} />
      {'errors' in shown ? (
        <div class="notice" role="alert" id="period-errors">
          <p>This period cannot be shown:</p>
          <ul class="error">
            {Object.values(shown.errors)
              .flat()
              .map((m) => (
                <li key={m}>{m}</li>
              ))}
          </ul>
        </div>
      ) : (
        <Figures page={props.page} shown={shown} />
      )}
    </>
  )
}

function Figures(props: {
  page: string
  shown: Exclude<StatsView['shown'], { errors: FieldMessages }>
}) {
  const { page } = props
  const { period, overview, tables, countries } = props.shown
  const days = barChart({
    id: 'chart-days',
    title: `Clicks per day, ${period.from} to ${period.to} (UTC)`,
    bars: overview.days.map((d) => ({ label: d.day.slice(5), value: d.clicks })),
    unit: 'clicks',
  })
  const hours = barChart({
    id: 'chart-hours',
    title: 'Clicks per hour of the day (UTC)',
    bars: overview.hours.map((h) => ({ label: `${h.hour}:00`, value: h.clicks })),
    unit: 'clicks',
  })
  const map = worldMap({
    id: 'map-countries',
    title: `Clicks per country, ${period.from} to ${period.to}`,
    clicks: countries,
    nameOf: props.shown.nameOf,
  })
  const figures: [string, string, number][] = [
    ['clicks', 'clicks', overview.clicks],
    ['visitors', 'unique visitors', overview.visitors],
    ['scans', 'of the clicks QR code scans', overview.scans],
    ['all-time', 'clicks all time', overview.allTime],
  ]
  return (
    <>
      <p id="period">
        From <time>{period.from}</time> to <time>{period.to}</time> (UTC days)
      </p>
      <ul class="totals" aria-label="Totals">
        {figures.map(([id, label, value]) => (
          <li key={id} id={`total-${id}`}>
            <strong>{numbers.format(value)}</strong> {label}
          </li>
        ))}
      </ul>
      <section class="panel" aria-labelledby="days-heading">
        <div class="panel-head">
          <h2 id="days-heading">Clicks per day</h2>
          <CsvLink href={csvHref(page, 'clicks', period)} what="clicks per day" />
        </div>
        <Trusted html={days} />
      </section>
      <section class="panel" aria-labelledby="hours-heading">
        <div class="panel-head">
          <h2 id="hours-heading">Clicks per hour of the day (UTC)</h2>
          <CsvLink href={csvHref(page, 'clicks_hour', period)} what="clicks per hour" />
        </div>
        <Trusted html={hours} />
      </section>
      <section class="panel" aria-labelledby="map-heading">
        <div class="panel-head">
          <h2 id="map-heading">Countries on the map</h2>
          <CsvLink href={csvHref(page, 'country', period)} what="countries" />
        </div>
        <Trusted html={map} class="map-frame" />
        <p class="muted small map-legend" id="map-legend">
          <span>Fewer clicks</span>
          {/* The map's own fills, so the scale reads the same way in light and dark. */}
          <svg class="map-scale" viewBox="0 0 100 12" width="100" height="12" aria-hidden="true">
            {[1, 2, 3, 4, 5].map((step) => (
              <rect
                key={step}
                class={`map-${step}`}
                x={(step - 1) * 20}
                y="0"
                width="20"
                height="12"
              />
            ))}
          </svg>
          <span>more clicks (a logarithmic scale). Small countries are in the table below.</span>
        </p>
        <GeoCredit credit={geoipCredit()} />
      </section>
      <div class="columns">
        {tables.map((table, i) => (
          <TopTable
            key={table.id}
            table={table}
            clicks={overview.clicks}
            csv={csvHref(page, overview.top[i]?.dimension ?? '', period)}
          />
        ))}
      </div>
    </>
  )
}
