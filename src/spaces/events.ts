/** The events of a space, added to the domain events (events/types.ts). */
import type { SpaceRecord } from './schema.js'

declare module '../events/types.js' {
  interface EventData {
    'space.created': { space: SpaceRecord }
    'space.updated': { space: SpaceRecord; changed: string[] }
    'space.deleted': { space: SpaceRecord }
  }
}
