/**
 * The redirect cache's listener: a committed event that affects a short link or a domain
 * becomes a change notice for the cache (which the relays in src/cluster/ carry to the other
 * processes).
 */
import type { Changes } from '../shared/changes.js'
import type { DomainEvents } from './bus.js'
import type { DomainEvent } from './types.js'

export function invalidateCacheOnEvents(events: DomainEvents, changes: Changes): () => void {
  return events.afterCommit((event: DomainEvent) => {
    if (event.domain) changes.publish({ kind: 'domain', ...event.domain })
    for (const key of event.links ?? []) changes.publish({ kind: 'link', ...key })
  })
}
