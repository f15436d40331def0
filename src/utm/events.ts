/** The events of a UTM template, added to the domain events (events/types.ts). */
import type { UtmTemplateRecord } from './schema.js'

declare module '../events/types.js' {
  interface EventData {
    'utm_template.created': { utm_template: UtmTemplateRecord }
    'utm_template.updated': { utm_template: UtmTemplateRecord; changed: string[] }
    'utm_template.deleted': { utm_template: UtmTemplateRecord }
  }
}
