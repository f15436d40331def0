/** The events of a tag, added to the domain events (events/types.ts). */
import type { TagRecord } from './schema.js'

declare module '../events/types.js' {
  interface EventData {
    'tag.created': { tag: TagRecord }
    'tag.updated': { tag: TagRecord; changed: string[] }
    'tag.deleted': { tag: TagRecord }
  }
}
