/** The events of a domain, added to the domain events (events/types.ts). */
import type { DomainRecord } from './schema.js'

declare module '../events/types.js' {
  interface EventData {
    'domain.created': { domain: DomainRecord }
    'domain.updated': { domain: DomainRecord; changed: string[] }
    'domain.deleted': { domain: DomainRecord }
  }
}
