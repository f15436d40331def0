import type { Kysely } from 'kysely'

/**
 * A link's social preview: the title, description and image a link-preview fetcher (Slack, X,
 * Facebook, WhatsApp …) shows for the short URL. Three nullable text columns; every link
 * already there has none, so it redirects every visitor as before.
 */
const COLUMNS = ['og_title', 'og_description', 'og_image'] as const

export function socialPreviews() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const column of COLUMNS) {
        await db.schema.alterTable('links').addColumn(column, 'text').execute()
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const column of [...COLUMNS].reverse()) {
        await db.schema.alterTable('links').dropColumn(column).execute()
      }
    },
  }
}
