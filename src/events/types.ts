/**
 * The domain events: one typed event per change of a link, pixel, space or domain, and one per
 * batch of counted clicks. `data` is what a webhook receives; `links` (never sent) names the
 * short links whose redirect the change affects, for the redirect cache.
 *
 * Each folder declares the events of its records in its events.ts (links/events.ts …), adding
 * them to `EventData`; this folder imports none of them, so they may all raise events.
 */
import type { LinkKey } from '../shared/link-keys.js'

/** Why a link was deleted: by itself, or with its space or domain. */
export type LinkDeleteCause = 'link' | 'space' | 'domain'

/** One counted click as a webhook sees it (no address, no User-Agent, no visitor hash). */
export interface ClickData {
  link_id: number
  at: string
  country: string | null
  platform: string | null
  browser: string | null
  device: string | null
  language: string | null
  referrer: string | null
}

/** The `data` of each event, by type (the records' folders add theirs). */
export interface EventData {
  'click.recorded': { clicks: ClickData[] }
}

export type EventType = keyof EventData

/** Every event name, in the order the docs list them. */
export const EVENT_TYPES = [
  'link.created',
  'link.updated',
  'link.deleted',
  'pixel.created',
  'pixel.updated',
  'pixel.deleted',
  'space.created',
  'space.updated',
  'space.deleted',
  'tag.created',
  'tag.updated',
  'tag.deleted',
  'domain.created',
  'domain.updated',
  'domain.deleted',
  'utm_template.created',
  'utm_template.updated',
  'utm_template.deleted',
  'click.recorded',
] as const satisfies readonly EventType[]

/** A change's event. `userId` null: a global domain (no owner, no webhook sees it). */
export type DomainEvent = {
  [T in EventType]: {
    type: T
    userId: number | null
    /** When it happened (epoch ms). */
    at: number
    data: EventData[T]
    /** Short links whose redirect the change affects (the cache forgets them); not sent. */
    links?: LinkKey[]
    /** A domain whose cached entry the change affects; not sent. */
    domain?: { id: number; name: string }
  }
}[EventType]

/**
 * The names of the fields that differ between two records (timestamps of the write aside). A
 * field that is an object or a list in both (a domain, targeting rules) differs when its JSON
 * does; any other when it is not the same value. (Serialising every field to compare it took a
 * twentieth of an update's request thread.)
 */
export function changedFields<T extends object>(before: T, after: T): string[] {
  const out: string[] = []
  for (const key of Object.keys(after) as (keyof T & string)[]) {
    if (key === 'updated_at') continue
    const was: unknown = before[key]
    const now: unknown = after[key]
    if (was === now) continue
    const bothObjects =
      typeof was === 'object' && was !== null && typeof now === 'object' && now !== null
    if (!bothObjects || JSON.stringify(was) !== JSON.stringify(now)) out.push(key)
  }
  return out
}

/** A link as it is now, for the events of a change that takes many links with it. */
export interface LinkSnapshot {
  userId: number
  key: LinkKey
  record: EventData['link.deleted']['link']
}

/** The links of a LinkRelationFilter, as snapshots. */
export type LinkSnapshotsOf = (filter: LinkRelationFilter) => Promise<LinkSnapshot[]>

/** The links in a space, on a domain, or carrying a pixel or a tag. */
export interface LinkRelationFilter {
  spaceId?: number
  pixelId?: number
  domainId?: number
  tagId?: number
}

/** The `link.deleted` events of links removed with their space or domain. */
export function cascadeDeletes(
  snapshots: LinkSnapshot[],
  cause: LinkDeleteCause,
  at: number,
): DomainEvent[] {
  return snapshots.map((s) => ({
    type: 'link.deleted',
    userId: s.userId,
    at,
    data: { link: s.record, cause },
    links: [s.key],
  }))
}
