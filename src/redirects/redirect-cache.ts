/**
 * Domains by host name and links by domain and alias, from in-process caches: a hot link is
 * answered without touching the database. Changes made through the services invalidate the
 * entries at once; the time to live bounds how stale an entry can be when a change happens in
 * another process that cannot tell this one.
 */
import type { DomainRow } from '../db/types.js'
import type { Change, Changes } from '../shared/changes.js'
import type { MaybePromise } from '../shared/maybe-promise.js'
import { LoadingCache } from './loading-cache.js'
import { toRedirectLink, type RedirectLink } from './redirect-link.js'
import type { RedirectStore } from './store.js'

export interface RedirectCacheOptions {
  ttlMs: number
  maxLinks: number
}

export class RedirectCache {
  private readonly domains: LoadingCache<DomainRow | null>
  private readonly links: LoadingCache<RedirectLink | null>
  private readonly domainsById = new Map<number, DomainRow>()

  constructor(store: RedirectStore, changes: Changes, options: RedirectCacheOptions) {
    this.domains = new LoadingCache(
      async (name) => {
        const domain = (await store.findDomain(name)) ?? null
        if (domain) this.domainsById.set(domain.id, domain)
        return domain
      },
      { maxEntries: 10_000, ttlMs: options.ttlMs },
    )
    this.links = new LoadingCache(
      async (key) => {
        const at = key.indexOf(':')
        const domain = this.domainsById.get(Number(key.slice(0, at)))
        const row = domain ? await store.findLink(domain.id, key.slice(at + 1)) : undefined
        return row && domain ? toRedirectLink(row, domain) : null
      },
      { maxEntries: options.maxLinks, ttlMs: options.ttlMs },
    )
    changes.subscribe((change) => this.forget(change))
  }

  /** The domain a request's host names (lower-cased, without a trailing dot), or null. */
  domain(hostname: string): MaybePromise<DomainRow | null> {
    const name = hostname.toLowerCase().replace(/\.$/, '')
    if (name === '' || name.length > 253) return null
    return this.domains.get(name)
  }

  link(domain: DomainRow, alias: string): MaybePromise<RedirectLink | null> {
    return this.links.get(`${domain.id}:${alias}`)
  }

  forget(change: Change): void {
    if (change.kind === 'link') {
      this.links.invalidate(`${change.domainId}:${change.alias}`)
      return
    }
    this.domains.invalidate(change.name)
    this.domainsById.delete(change.id)
    this.links.invalidateWhere((key) => key.startsWith(`${change.id}:`))
  }

  clear(): void {
    this.domains.clear()
    this.links.clear()
    this.domainsById.clear()
  }
}
