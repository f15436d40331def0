/**
 * The links list, driven by the API list's query parameters (search, search_by, status,
 * space_id, domain_id, pixel_id, sort_by, sort, per_page, page): a bar with the search and the
 * filters (a GET form, so a view can be bookmarked and shared) and the bulk actions, the table
 * with sorting headers, and pages that keep every filter. A search looks in alias, destination
 * and title unless `search_by` says otherwise.
 */
import type { LinkRecord, LinkListQuery } from '../links/schema.js'
import type { RenderedPage } from '../pages/layout.js'
import { Pager, RefusedFilters } from './components.js'
import { LinkRow } from './link-list-row.js'
import { LinkToolbar, SortHeader } from './link-list-toolbar.js'
import { SelectAll } from './link-row-actions.js'
import { dashboardPage, type Viewer } from './shell.js'
import { ShortenBox } from './shorten-box.js'

const numbers = new Intl.NumberFormat('en-US')

export interface LinksPageInput {
  query: LinkListQuery
  /** The request's own query string, to build page links that keep every filter. */
  search: URLSearchParams
  records: LinkRecord[]
  total: number
  /** More links match than were counted: the total reads "10,000+", pages run on while full. */
  capped?: boolean
  page: number
  perPage: number
  spaces: { id: number; name: string }[]
  /** The user's tag names, suggested in the bulk actions' tag field. */
  tags: string[]
  now: number
  /** What a row or bulk action just did, if anything. */
  notice?: string | null
  /** The link the shorten box just made (a plain post's `?shortened=<id>`). */
  shortened?: LinkRecord | null
}

/** Whether the list is narrowed by anything but its order and page size. */
function filtered(query: LinkListQuery): boolean {
  const { search, status, space_id, domain_id, pixel_id, space, domain, tag } = query
  return (
    (search ?? '') !== '' ||
    (tag ?? []).some((name) => name.trim() !== '') ||
    (status ?? 0) !== 0 ||
    [space_id, domain_id, pixel_id, space, domain].some((v) => v !== undefined)
  )
}

function pageHref(search: URLSearchParams, page: number): string {
  const params = new URLSearchParams(search)
  params.set('page', String(page))
  return `/dashboard/links?${params.toString()}`
}

export function linksPage(viewer: Viewer, input: LinksPageInput): RenderedPage {
  const { query } = input
  // A capped count knows no last page: "Next" stays while a page is full.
  const lastPage = input.capped
    ? input.records.length === input.perPage
      ? input.page + 1
      : input.page
    : Math.max(1, Math.ceil(input.total / input.perPage))
  const first = input.records.length > 0 ? (input.page - 1) * input.perPage + 1 : 0
  const last = first === 0 ? 0 : first + input.records.length - 1
  // Row and bulk actions come back to this very page (filters and page number kept).
  const back = pageHref(input.search, input.page)
  const sorting = { search: input.search, query }
  return dashboardPage({
    title: 'Links',
    section: 'links',
    viewer,
    children: (
      <>
        {input.notice ? (
          <p class="notice" role="status" id="links-notice">
            {input.notice}
          </p>
        ) : null}
        <ShortenBox csrf={viewer.csrf} from="links" created={input.shortened ?? null} />
        <LinkToolbar
          query={query}
          perPage={input.perPage}
          spaces={input.spaces}
          tags={input.tags}
          csrf={viewer.csrf}
          back={back}
          rows={input.records.length}
        />
        <p class="muted" id="links-count" role="status">
          {input.total === 0
            ? filtered(query)
              ? 'No links match.'
              : 'You have no links yet: paste a long URL in the box above and press Enter to make your first one.'
            : input.records.length === 0
              ? 'No links on this page.'
              : input.capped
                ? `${numbers.format(first)}–${numbers.format(last)} of more than ${numbers.format(input.total - 1)} links`
                : `${numbers.format(first)}–${numbers.format(last)} of ${numbers.format(input.total)} links`}
        </p>
        {input.records.length > 0 ? (
          <div class="panel link-list">
            <table id="links" class="cards">
              <thead>
                <tr>
                  <th scope="col" class="select">
                    <SelectAll />
                  </th>
                  <SortHeader column="alias" class="col-short" {...sorting}>
                    Short link
                  </SortHeader>
                  <SortHeader column="url" class="col-destination" {...sorting}>
                    Destination
                  </SortHeader>
                  <th scope="col" class="col-status">
                    Status
                  </th>
                  <SortHeader column="clicks" class="num col-clicks" {...sorting}>
                    Clicks
                  </SortHeader>
                  <SortHeader column="id" class="col-created" {...sorting}>
                    Created
                  </SortHeader>
                  <th scope="col" class="col-actions">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {input.records.map((link) => (
                  <LinkRow
                    key={link.id}
                    link={link}
                    now={input.now}
                    csrf={viewer.csrf}
                    back={back}
                  />
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <Pager
          page={input.page}
          lastPage={lastPage}
          capped={input.capped}
          href={(page) => pageHref(input.search, page)}
        />
      </>
    ),
  })
}

/** Send with 422: list parameters the API would refuse, each with the API's message. */
export function linksQueryErrorPage(viewer: Viewer, messages: Record<string, string[]>) {
  return dashboardPage({
    title: 'Links',
    section: 'links',
    viewer,
    children: (
      <RefusedFilters messages={messages} back="/dashboard/links" backText="Show all links" />
    ),
  })
}
