/**
 * The links list, driven by the API list's query parameters (search, search_by, status,
 * space_id, domain_id, pixel_id, sort_by, sort, per_page, page): a filter form that submits
 * them with GET, so a view can be bookmarked and shared, the table, and pages that keep every
 * filter.
 */
import type { LinkRecord, LinkListQuery } from '../links/schema.js'
import type { RenderedPage } from '../pages/layout.js'
import { safeHref } from '../pages/safe-values.js'
import { BulkBar, RowActions, SelectAll, SelectLink, ShortLink } from './link-row-actions.js'
import { FilterSelect, OrderAndRows, RefusedFilters } from './components.js'
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
  now: number
  /** What a row or bulk action just did, if anything. */
  notice?: string | null
  /** The link the shorten box just made (a plain post's `?shortened=<id>`). */
  shortened?: LinkRecord | null
}

/** Whether the list is narrowed by anything but its order and page size. */
function filtered(query: LinkListQuery): boolean {
  const { search, status, space_id, domain_id, pixel_id, space, domain } = query
  return (
    (search ?? '') !== '' ||
    (status ?? 0) !== 0 ||
    [space_id, domain_id, pixel_id, space, domain].some((v) => v !== undefined)
  )
}

export function linkStatus(link: LinkRecord, now: number): 'active' | 'expired' | 'disabled' {
  if (link.disabled) return 'disabled'
  if (link.ends_at !== null && Date.parse(link.ends_at) <= now) return 'expired'
  if (link.expiration_clicks && link.clicks >= link.expiration_clicks) return 'expired'
  return 'active'
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
        <form class="panel filters" method="get" action="/dashboard/links" role="search">
          <div class="filter grow">
            <label for="filter-search">Search</label>
            <input id="filter-search" type="search" name="search" value={query.search ?? ''} />
          </div>
          <FilterSelect
            name="search_by"
            label="In"
            value={query.search_by ?? 'title'}
            options={[
              ['title', 'Title'],
              ['alias', 'Alias'],
              ['url', 'Destination'],
            ]}
          />
          <FilterSelect
            name="status"
            label="Status"
            value={String(query.status ?? 0)}
            options={[
              ['0', 'All'],
              ['1', 'Active'],
              ['2', 'Expired'],
              ['3', 'Disabled'],
            ]}
          />
          <FilterSelect
            name="space_id"
            label="Space"
            value={query.space_id === undefined ? '' : String(query.space_id)}
            options={[
              ['', 'All'],
              ['0', 'No space'],
              ...input.spaces.map((s) => [String(s.id), s.name] as const),
            ]}
          />
          <FilterSelect
            name="sort_by"
            label="Sort by"
            value={query.sort_by ?? 'id'}
            options={[
              ['id', 'Created'],
              ['clicks', 'Clicks'],
              ['title', 'Title'],
              ['alias', 'Alias'],
              ['url', 'Destination'],
            ]}
          />
          <OrderAndRows sort={query.sort ?? 'desc'} perPage={input.perPage} />
        </form>
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
          <BulkBar csrf={viewer.csrf} back={back} spaces={input.spaces} />
        ) : null}
        {input.records.length > 0 ? (
          <div class="panel table-scroll">
            <table id="links" class="cards">
              <thead>
                <tr>
                  <th scope="col" class="select">
                    <SelectAll />
                  </th>
                  <th scope="col">Short link</th>
                  <th scope="col">Title and destination</th>
                  <th scope="col" class="num">
                    Clicks
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col">Space</th>
                  <th scope="col">Created</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {input.records.map((link) => (
                  <tr key={link.id} id={`link-${link.id}`}>
                    <td class="select">
                      <SelectLink link={link} />
                    </td>
                    <td class="nowrap">
                      <ShortLink link={link} />
                    </td>
                    <td>
                      {link.title ? <span class="link-title">{link.title}</span> : null}
                      <a class="muted small link-url" href={safeHref(link.url)} rel="noreferrer">
                        {link.url}
                      </a>
                    </td>
                    <td class="num" data-label="Clicks">
                      {numbers.format(link.clicks)}
                    </td>
                    <td class="nowrap" data-label="Status">
                      {linkStatus(link, input.now)}
                    </td>
                    <td class="words" data-label="Space">
                      {link.space?.name ?? ''}
                    </td>
                    <td class="nowrap" data-label="Created">
                      {link.created_at.slice(0, 10)}
                    </td>
                    <td data-label="Actions">
                      <RowActions link={link} csrf={viewer.csrf} back={back} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {lastPage > 1 ? (
          <nav class="pager" aria-label="Pages">
            {input.page > 1 ? (
              <a rel="prev" href={pageHref(input.search, input.page - 1)}>
                Previous
              </a>
            ) : null}
            <span>
              {input.capped
                ? `Page ${numbers.format(input.page)}`
                : `Page ${numbers.format(input.page)} of ${numbers.format(lastPage)}`}
            </span>
            {input.page < lastPage ? (
              <a rel="next" href={pageHref(input.search, input.page + 1)}>
                Next
              </a>
            ) : null}
          </nav>
        ) : null}
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
