import type { Kysely } from 'kysely'
import type { Dialect } from '../connect.js'
import { columnsFor } from './columns.js'

/**
 * UTM templates: a user's named sets of the five utm_* values, which the link form fills in.
 * A name is unique among one user's templates; a value that is not set is null.
 */
export function utmTemplates(dialect: Dialect) {
  const { big, withId } = columnsFor(dialect)
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withId(db.schema.createTable('utm_templates'))
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('utm_source', 'text')
        .addColumn('utm_medium', 'text')
        .addColumn('utm_campaign', 'text')
        .addColumn('utm_term', 'text')
        .addColumn('utm_content', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addUniqueConstraint('utm_templates_user_name', ['user_id', 'name'])
        .execute()
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('utm_templates').execute()
    },
  }
}
