/** The wire record of a link, with its space, domain, pixels and tags fetched once per page. */
import type { LinkRow } from '../db/types.js'
import { toDomainRecord } from '../domains/record.js'
import type { DomainRecord } from '../domains/schema.js'
import type { DomainStore } from '../domains/store.js'
import { toPixelRecord } from '../pixels/record.js'
import type { PixelStore } from '../pixels/store.js'
import { isoMicro } from '../shared/time.js'
import { toSpaceRecord } from '../spaces/record.js'
import type { SpaceStore } from '../spaces/store.js'
import { compareTagNames } from '../tags/names.js'
import type { LinkRecord } from './schema.js'
import { relationsReadWith, type LinkStore } from './store.js'

export interface LinkPresenterDeps {
  links: LinkStore
  domains: DomainStore
  spaces: SpaceStore
  pixels: PixelStore
}

/** Turns a user's link rows into the API's records, with their domain, space and pixels. */
export interface LinkPresenter {
  present(userId: number, rows: LinkRow[]): Promise<LinkRecord[]>
}

/** The presenter over the stores it reads (which stay with it). */
export function linkPresenter(deps: LinkPresenterDeps): LinkPresenter {
  return { present: (userId, rows) => presentLinks(deps, userId, rows) }
}

export function shortUrl(domainUrl: string, alias: string): string {
  return `${domainUrl}/${alias}`
}

export async function presentLinks(
  deps: LinkPresenterDeps,
  userId: number,
  rows: LinkRow[],
): Promise<LinkRecord[]> {
  if (rows.length === 0) return []
  const unique = (values: (number | null)[]) => [
    ...new Set(values.filter((v): v is number => v !== null)),
  ]
  // A row read with its domain and pixel ids (LinkStore.find, a search's page) needs neither again.
  const read = rows.map(relationsReadWith)
  const unread = rows.filter((_, i) => read[i] === undefined)
  const pixelIds =
    unread.length === 0
      ? new Map<number, number[]>()
      : await deps.links.pixelIdsOf(unread.map((r) => r.id))
  const domainById = new Map<number, DomainRecord>()
  rows.forEach((row, i) => {
    const relations = read[i]
    if (relations === undefined) return
    pixelIds.set(row.id, relations.pixelIds)
    if (!domainById.has(relations.domain.id)) {
      domainById.set(relations.domain.id, toDomainRecord(relations.domain))
    }
  })
  const [domains, spaces, pixels, tagNames] = await Promise.all([
    deps.domains.findMany(
      unique(unread.map((r) => r.domain_id)).filter((id) => !domainById.has(id)),
    ),
    deps.spaces.findMany(userId, unique(rows.map((r) => r.space_id))),
    deps.pixels.findMany(userId, unique([...pixelIds.values()].flat())),
    deps.links.tagNamesOf(rows.map((r) => r.id)),
  ])
  for (const domain of domains) domainById.set(domain.id, toDomainRecord(domain))
  const spaceById = new Map(spaces.map((s) => [s.id, toSpaceRecord(s)]))
  const pixelById = new Map(pixels.map((p) => [p.id, toPixelRecord(p)]))
  return rows.map((row) =>
    linkRecord(row, {
      domain: domainById.get(row.domain_id)!,
      space: row.space_id === null ? null : (spaceById.get(row.space_id) ?? null),
      pixels: (pixelIds.get(row.id) ?? []).flatMap((id) => pixelById.get(id) ?? []),
      tags: (tagNames.get(row.id) ?? []).sort(compareTagNames),
    }),
  )
}

/** What a link's record takes from other records: its domain, space, pixels and tags. */
export type LinkRelations = Pick<LinkRecord, 'domain' | 'space' | 'pixels' | 'tags'>

/** The wire record of a link row with its related records. */
export function linkRecord(
  row: LinkRow,
  { domain, space, pixels, tags }: LinkRelations,
): LinkRecord {
  return {
    id: row.id,
    alias: row.alias,
    url: row.url,
    short_url: shortUrl(domain.url, row.alias),
    title: row.title,
    target_type: row.target_type,
    country_target: row.country_target,
    platform_target: row.platform_target,
    language_target: row.language_target,
    rotation_target: row.rotation_target,
    last_rotation: row.last_rotation,
    // Stored rules passed the field rules, which allow only these condition types.
    rules: (row.rules ?? []) as LinkRecord['rules'],
    disabled: row.disabled,
    privacy: row.privacy,
    privacy_password: row.privacy_password !== null,
    password: row.password !== null,
    expiration_url: row.expiration_url,
    expiration_clicks: row.expiration_clicks,
    clicks: row.clicks,
    space,
    domain,
    pixels,
    tags,
    ends_at: isoMicro(row.ends_at),
    created_at: isoMicro(row.created_at)!,
    updated_at: isoMicro(row.updated_at)!,
    og_title: row.og_title,
    og_description: row.og_description,
    og_image: row.og_image,
  }
}
