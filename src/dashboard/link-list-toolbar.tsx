/**
 * The bar above the links list, one line until a part of it is opened: one search box (alias,
 * URL and title at once, `search_by=all`), the other filters in a `<details>` that says how
 * many are on, the actions on the selected rows in another, and "New link". The headers of the
 * list sort it: each is a link that sets `sort_by` and `sort`, keeping every filter.
 */
import type { ComponentChildren } from 'preact'
import type { LinkListQuery } from '../links/schema.js'
import { FilterSelect, OrderAndRows } from './components.js'
import { BulkBar } from './link-row-actions.js'

type SortBy = NonNullable<LinkListQuery['sort_by']>

/** How many filters other than the search are on (what the closed "Filters" says). */
function filtersOn(query: LinkListQuery): number {
  return [
    query.status !== undefined && query.status !== 0,
    query.space_id !== undefined,
    query.domain_id !== undefined,
    query.pixel_id !== undefined,
    (query.tag ?? []).length > 0,
    query.search_by !== undefined && query.search_by !== 'all',
  ].filter(Boolean).length
}

export function LinkToolbar(props: {
  query: LinkListQuery
  perPage: number
  spaces: { id: number; name: string }[]
  tags: string[]
  csrf: string
  back: string
  /** Rows on the page: without any, there is nothing to select. */
  rows: number
}) {
  const { query } = props
  const on = filtersOn(query)
  return (
    <div class="link-toolbar">
      <form
        class="toolbar-search"
        method="get"
        action="/dashboard/links"
        role="search"
        id="link-filters"
      >
        <label for="filter-search" class="visually-hidden">
          Search links by alias, destination or title
        </label>
        <input
          id="filter-search"
          type="search"
          name="search"
          value={query.search ?? ''}
          placeholder="Search alias, destination, title"
        />
        <button type="submit" id="search-submit">
          Search
        </button>
        <details class="toolbar-menu" id="filters-menu">
          <summary>{on > 0 ? `Filters (${on})` : 'Filters'}</summary>
          <div class="toolbar-panel panel filters">
            <FilterSelect
              name="search_by"
              label="Search in"
              value={query.search_by ?? 'all'}
              options={[
                ['all', 'Alias, destination and title'],
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
                ...props.spaces.map((s) => [String(s.id), s.name] as const),
              ]}
            />
            <div class="filter">
              <label for="filter-tag">Tag</label>
              <input id="filter-tag" type="text" name="tag" value={(query.tag ?? [])[0] ?? ''} />
            </div>
            {(query.tag ?? []).slice(1).map((name, i) => (
              <input key={`${i} ${name}`} type="hidden" name="tag[]" value={name} />
            ))}
            {query.tag_mode !== undefined ? (
              <input type="hidden" name="tag_mode" value={query.tag_mode} />
            ) : null}
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
            <OrderAndRows sort={query.sort ?? 'desc'} perPage={props.perPage} />
          </div>
        </details>
      </form>
      {props.rows > 0 ? (
        <details class="toolbar-menu" id="bulk-menu">
          <summary>With selected</summary>
          <div class="toolbar-panel">
            <BulkBar csrf={props.csrf} back={props.back} spaces={props.spaces} tags={props.tags} />
          </div>
        </details>
      ) : null}
      <a class="button" href="/dashboard/links/new" id="new-link">
        New link
      </a>
    </div>
  )
}

/**
 * A column header that sorts the list by its column: descending first (newest, most clicked),
 * ascending for text; the current column's header turns the order round and says how it sorts.
 */
export function SortHeader(props: {
  column: SortBy
  search: URLSearchParams
  query: LinkListQuery
  class?: string
  children: ComponentChildren
}) {
  const current = (props.query.sort_by ?? 'id') === props.column
  const order = props.query.sort ?? 'desc'
  const first = props.column === 'id' || props.column === 'clicks' ? 'desc' : 'asc'
  const next = current ? (order === 'desc' ? 'asc' : 'desc') : first
  const params = new URLSearchParams(props.search)
  params.set('sort_by', props.column)
  params.set('sort', next)
  params.delete('page')
  return (
    <th
      scope="col"
      class={props.class}
      aria-sort={current ? (order === 'desc' ? 'descending' : 'ascending') : undefined}
    >
      <a class="sort" href={`/dashboard/links?${params.toString()}`}>
        {props.children}
        {current ? <span aria-hidden="true">{order === 'desc' ? ' ↓' : ' ↑'}</span> : null}
      </a>
    </th>
  )
}
