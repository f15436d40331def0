import type { Kysely } from 'kysely'

/**
 * A link's redirect rules: JSON text like its targeting lists, null when it has none (every
 * link stored before has none). Adding a nullable column without a default rewrites no row on
 * either engine.
 */
export function redirectRules() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('links').addColumn('rules', 'text').execute()
    },
  }
}
