/**
 * The statistics of one of the user's tags: the clicks of the links carrying it, together (as
 * the API's `/tags/{id}/stats` adds them up), under a title with the tag's name and how many
 * links carry it, and a link to those links; then the sections every statistics page shows
 * (stats-sections.tsx). A period that breaks the rules is a 422 with the messages.
 */
import type { RenderedPage } from '../pages/layout.js'
import { dashboardPage, type Viewer } from './shell.js'
import { StatsSections, type StatsView } from './stats-sections.js'

export interface StatsTag {
  id: number
  name: string
  /** How many of the user's links carry it. */
  links: number
}

const numbers = new Intl.NumberFormat('en-US')

/** The links list filtered by this tag. */
export function taggedLinksHref(name: string): string {
  return `/dashboard/links?${new URLSearchParams({ tag: name })}`
}

export function tagStatsPage(viewer: Viewer, view: StatsView & { tag: StatsTag }): RenderedPage {
  const { tag } = view
  const links = `${numbers.format(tag.links)} ${tag.links === 1 ? 'link' : 'links'}`
  return dashboardPage({
    title: `Tag “${tag.name}”: ${links}`,
    section: 'tags',
    viewer,
    children: (
      <>
        <p class="link-head" id="tag-head">
          The clicks of the {links} tagged <strong>{tag.name}</strong>, together.
        </p>
        <p class="actions">
          <a class="button secondary" id="tag-links" href={taggedLinksHref(tag.name)}>
            {tag.links === 1 ? 'Its link' : `Its ${links}`}
          </a>
          <a class="button secondary" href="/dashboard/tags">
            All tags
          </a>
        </p>
        <StatsSections view={view} page={`/dashboard/tags/${tag.id}/stats`} />
      </>
    ),
  })
}
