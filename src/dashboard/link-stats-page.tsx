/**
 * The statistics of one of the user's links: its short URL and title, then the sections every
 * statistics page shows (stats-sections.tsx); a period that breaks the rules is a 422 with the
 * messages.
 */
import type { RenderedPage } from '../pages/layout.js'
import { safeHref } from '../pages/safe-values.js'
import { dashboardPage, type Viewer } from './shell.js'
import { StatsSections, type StatsView } from './stats-sections.js'

export interface StatsLink {
  id: number
  alias: string
  shortUrl: string
  title: string | null
}

export interface LinkStatsView extends StatsView {
  link: StatsLink
}

/** The short URL and title a link's pages (statistics, QR code) open with. */
export function LinkHead(props: { link: StatsLink }) {
  const { link } = props
  return (
    <p class="link-head">
      <a id="short-url" href={safeHref(link.shortUrl)}>
        {link.shortUrl}
      </a>
      {link.title ? (
        <span class="muted" id="link-title">
          {' '}
          · {link.title}
        </span>
      ) : null}
    </p>
  )
}

export function linkStatsPage(viewer: Viewer, view: LinkStatsView): RenderedPage {
  const { link } = view
  return dashboardPage({
    title: 'Link statistics',
    section: 'links',
    viewer,
    children: (
      <>
        <LinkHead link={link} />
        <p class="actions">
          <a class="button secondary" href={`/dashboard/links/${link.id}/qr`}>
            QR code
          </a>
          <a class="button secondary" href="/dashboard/links">
            All links
          </a>
        </p>
        <StatsSections view={view} page={`/dashboard/links/${link.id}/stats`} />
      </>
    ),
  })
}

/** Send with 404: no link of this user has that id (another user's link is not found too). */
export function linkNotFoundPage(viewer: Viewer): RenderedPage {
  return dashboardPage({
    title: 'Link not found',
    section: 'links',
    viewer,
    children: (
      <p>
        None of your links has this address. <a href="/dashboard/links">Your links</a>
      </p>
    ),
  })
}

/** Send with 422: a download that cannot be made as asked; `messages` say why. */
export function downloadErrorPage(
  viewer: Viewer,
  input: { messages: string[]; back: string },
): RenderedPage {
  return dashboardPage({
    title: 'Cannot download this',
    section: 'links',
    viewer,
    children: (
      <>
        <ul class="error" id="download-errors">
          {input.messages.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
        <p>
          <a href={input.back}>Back</a>
        </p>
      </>
    ),
  })
}
