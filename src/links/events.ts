/** The events of a link, added to the domain events (events/types.ts). */
import type { LinkDeleteCause } from '../events/types.js'
import type { LinkRecord } from './schema.js'

declare module '../events/types.js' {
  interface EventData {
    'link.created': { link: LinkRecord }
    'link.updated': { link: LinkRecord; changed: string[] }
    'link.deleted': { link: LinkRecord; cause: LinkDeleteCause }
  }
}
