/** The events of a pixel, added to the domain events (events/types.ts). */
import type { PixelRecord } from './schema.js'

declare module '../events/types.js' {
  interface EventData {
    'pixel.created': { pixel: PixelRecord }
    'pixel.updated': { pixel: PixelRecord; changed: string[] }
    'pixel.deleted': { pixel: PixelRecord }
  }
}
