/**
 * The Overview: the shorten box, then totals, clicks of the last 30 days as a chart, top links
 * and latest links; on an account without links, the box and the next steps instead. A choice
 * of the user's tags (a GET form, `?tag=NAME`) narrows all of it to the links carrying one; a
 * name none of the user's tags has is said so, with no numbers.
 */
import { Fragment, type ComponentChildren } from 'preact'
import type { LinkRecord } from '../links/schema.js'
import type { RenderedPage } from '../pages/layout.js'
import { safeHref } from '../pages/safe-values.js'
import { barChart } from '../pages/svg-chart.js'
import type { AccountOverview } from '../stats/account-overview.js'
import { FilterSelect } from './components.js'
import { dashboardPage, Trusted, type Viewer } from './shell.js'
import { ShortenBox } from './shorten-box.js'
import { taggedLinksHref } from './tag-stats-page.js'

/** The tag choice of the Overview. */
export interface OverviewTags {
  /** The user's tag names, in order (none: no choice is shown unless one was asked for). */
  names: string[]
  /** The tag asked for: one of the user's (its stored name), a name none has, or none. */
  asked: { id: number; name: string } | { unknown: string } | null
}

const numbers = new Intl.NumberFormat('en-US')

/** A total whose groups may wrap after their commas on a narrow card: 49,999,<wbr>500,<wbr>000. */
function grouped(value: number) {
  const parts = numbers.format(value).split(',')
  return parts.map((part, i) =>
    i < parts.length - 1 ? (
      <Fragment key={i}>
        {part},<wbr />
      </Fragment>
    ) : (
      part
    ),
  )
}

function LinkTable(props: { id: string; caption: string; links: LinkRecord[]; empty: string }) {
  if (props.links.length === 0) return <p class="muted">{props.empty}</p>
  return (
    <div class="table-scroll">
      <table id={props.id}>
        <caption class="muted small">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Short link</th>
            <th scope="col">Title</th>
            <th scope="col" class="num">
              Clicks
            </th>
          </tr>
        </thead>
        <tbody>
          {props.links.map((link) => (
            <tr key={link.id}>
              <td class="nowrap">
                <a href={safeHref(link.short_url)}>/{link.alias}</a>
              </td>
              <td>
                <span class="link-title">{link.title ?? link.url}</span>
                {link.space ? (
                  <span class="muted small link-space">
                    {' '}
                    in <span class="space-name">{link.space.name}</span>
                  </span>
                ) : null}
              </td>
              <td class="num">{numbers.format(link.clicks)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** What a new account can do next, each with the page that does it. */
function NextSteps() {
  return (
    <section class="panel" aria-labelledby="next-heading" id="next-steps">
      <h2 id="next-heading">Next steps</h2>
      <ul class="next-steps">
        <li>
          <a href="/dashboard/domains/new">Add your own domain</a>
          <span class="muted small"> so your links read go.example.com/… instead.</span>
        </li>
        <li>
          <a href="/dashboard/pixels/new">Add a tracking pixel</a>
          <span class="muted small"> to count visits in your analytics or ads account.</span>
        </li>
        <li>
          <a href="/dashboard/account#keys-heading">Create an API key</a>
          <span class="muted small"> to shorten links from your own scripts and apps.</span>
        </li>
        <li>
          <a href="/dashboard/account#bookmarklet-heading">Add the “Shorten this page” bookmark</a>
          <span class="muted small"> to shorten any page you are reading in one click.</span>
        </li>
      </ul>
    </section>
  )
}

/** The GET form choosing the links the Overview counts: all, or those carrying one tag. */
function TagChoice(props: { tags: OverviewTags }) {
  const { names, asked } = props.tags
  const current = asked === null ? '' : 'unknown' in asked ? asked.unknown : asked.name
  const options = [
    ['', 'All links'] as const,
    ...names.map((name) => [name, `Tagged ${name}`] as const),
    // A tag past the first names, or a name no tag has: shown as asked, so the form says it.
    ...(current !== '' && !names.includes(current)
      ? [[current, `Tagged ${current}`] as const]
      : []),
  ]
  return (
    <form method="get" action="/dashboard" class="filters overview-tag" aria-label="Links counted">
      <FilterSelect name="tag" label="Links counted" value={current} options={options} />
      <div class="filter">
        <button type="submit">Show</button>
      </div>
    </form>
  )
}

export function overviewPage(
  viewer: Viewer,
  data: AccountOverview | null,
  shortened: LinkRecord | null = null,
  tags: OverviewTags = { names: [], asked: null },
): RenderedPage {
  const page = (children: ComponentChildren) =>
    dashboardPage({ title: 'Overview', section: 'overview', viewer, children })
  const asked = tags.asked
  const choice = tags.names.length > 0 || asked !== null ? <TagChoice tags={tags} /> : null
  if (data === null || (asked !== null && 'unknown' in asked)) {
    const name = asked !== null && 'unknown' in asked ? asked.unknown : ''
    return page(
      <>
        <ShortenBox csrf={viewer.csrf} from="overview" created={shortened} />
        {choice}
        <div class="notice" role="alert" id="unknown-tag">
          <p>
            You have no tag named <strong>{name}</strong>. Choose one of your tags above, or{' '}
            <a href="/dashboard">all links</a>.
          </p>
        </div>
      </>,
    )
  }
  const { totals } = data
  if (totals.links === 0 && !shortened && asked === null) {
    return page(
      <>
        <p class="lead" id="welcome">
          Welcome to slink. Paste your first long URL below and press Enter: the short link appears
          here, ready to copy.
        </p>
        <ShortenBox csrf={viewer.csrf} from="overview" autofocus />
        <NextSteps />
      </>,
    )
  }
  const figures: [string, number][] = [
    ['links', totals.links],
    ['clicks', totals.clicks],
    ['pixels', totals.pixels],
    ['spaces', totals.spaces],
  ]
  const chart = barChart({
    id: 'chart-overview',
    title: `Clicks per day, ${data.period.from} to ${data.period.to} (UTC)`,
    bars: data.days.map((d) => ({ label: d.day.slice(5), value: d.clicks })),
    unit: 'clicks',
  })
  const recent = data.days.reduce((sum, d) => sum + d.clicks, 0)
  return page(
    <>
      <ShortenBox csrf={viewer.csrf} from="overview" created={shortened} />
      {choice}
      {asked !== null ? (
        <p id="tag-filter">
          Counting the {numbers.format(totals.links)} {totals.links === 1 ? 'link' : 'links'} tagged{' '}
          <strong>{asked.name}</strong>, and the pixels and spaces they use.{' '}
          <a href={`/dashboard/tags/${asked.id}/stats`}>Statistics of the tag</a> ·{' '}
          <a href={taggedLinksHref(asked.name)}>its links</a>
        </p>
      ) : null}
      <ul class="totals" aria-label="Totals">
        {figures.map(([name, value]) => (
          <li key={name} id={`total-${name}`}>
            <strong>{grouped(value)}</strong> {name}
          </li>
        ))}
      </ul>
      <section class="panel" aria-labelledby="clicks-heading">
        <h2 id="clicks-heading">Clicks in the last 30 days</h2>
        <p class="muted small" id="clicks-30-days">
          {numbers.format(recent)} {recent === 1 ? 'click' : 'clicks'} from {data.period.from} to{' '}
          {data.period.to} (UTC)
        </p>
        <Trusted html={chart} />
      </section>
      <div class="columns">
        <section class="panel" aria-labelledby="top-heading">
          <h2 id="top-heading">Top links</h2>
          <LinkTable
            id="top-links"
            caption="Most clicked, all time"
            links={data.topLinks}
            empty="No clicks yet."
          />
        </section>
        <section class="panel" aria-labelledby="latest-heading">
          <h2 id="latest-heading">Latest links</h2>
          <LinkTable
            id="latest-links"
            caption="Newest first"
            links={data.latestLinks}
            empty="No links yet."
          />
        </section>
      </div>
    </>,
  )
}
