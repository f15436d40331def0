/** The API's list parameters of links as the link store's filter (shared by the API and the dashboard). */
import type { LinkListQuery } from './schema.js'
import type { LinkFilter, LinkStatus } from './store.js'

const STATUS: Record<number, LinkStatus | undefined> = {
  0: undefined,
  1: 'active',
  2: 'expired',
  3: 'disabled',
}

export function linkFilterOf(query: LinkListQuery): LinkFilter {
  return {
    search: query.search,
    searchBy: query.search_by ?? 'title',
    status: STATUS[query.status ?? 0],
    spaceId: query.space_id,
    domainId: query.domain_id,
    pixelId: query.pixel_id,
    ...tagFilterOf(query),
    sortBy: query.sort_by ?? 'id',
  }
}

/** The tags of a list's filter; empty names are no filter. */
function tagFilterOf(query: LinkListQuery): Pick<LinkFilter, 'tags' | 'tagMode'> {
  const tags = (query.tag ?? []).map((name) => name.trim()).filter((name) => name !== '')
  return tags.length === 0 ? {} : { tags, tagMode: query.tag_mode ?? 'any' }
}
