import type { Kysely } from 'kysely'
import type { Dialect } from '../connect.js'
import { columnsFor } from './columns.js'

/**
 * Tags: a user's labels, many to a link. `name_key` is the name in lower case, unique per user
 * (names are unique ignoring case; `name` keeps the first spelling). `link_tags` pairs links
 * and tags; its index by tag serves the links list's tag filter and a tag's count of links.
 */
export function tags(dialect: Dialect) {
  const { big, withId } = columnsFor(dialect)
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withId(db.schema.createTable('tags'))
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('color', 'integer', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addUniqueConstraint('tags_user_name_key', ['user_id', 'name_key'])
        .execute()
      await db.schema
        .createTable('link_tags')
        .addColumn('link_id', 'integer', (c) =>
          c.notNull().references('links.id').onDelete('cascade'),
        )
        .addColumn('tag_id', 'integer', (c) =>
          c.notNull().references('tags.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('link_tags_pk', ['link_id', 'tag_id'])
        .execute()
      await db.schema
        .createIndex('link_tags_tag_link')
        .on('link_tags')
        .columns(['tag_id', 'link_id'])
        .execute()
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('link_tags').execute()
      await db.schema.dropTable('tags').execute()
    },
  }
}
