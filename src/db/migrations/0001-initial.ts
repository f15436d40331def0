import type { Kysely } from 'kysely'
import type { Dialect } from '../connect.js'
import { columnsFor } from './columns.js'

/** The first schema: users and their keys, domains, spaces, pixels and links. */
export function initial(dialect: Dialect) {
  const { big, withId } = columnsFor(dialect)

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withId(db.schema.createTable('users'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('UTC'))
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute()

      await withId(db.schema.createTable('api_keys'))
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('revoked_at', big)
        .execute()
      await db.schema.createIndex('api_keys_prefix').on('api_keys').column('prefix').execute()

      await withId(db.schema.createTable('domains'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('index_page', 'text')
        .addColumn('not_found_page', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute()

      await withId(db.schema.createTable('spaces'))
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('color', 'integer', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addUniqueConstraint('spaces_user_name', ['user_id', 'name'])
        .execute()

      await withId(db.schema.createTable('pixels'))
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addUniqueConstraint('pixels_user_name', ['user_id', 'name'])
        .execute()

      await withId(db.schema.createTable('links'))
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('domain_id', 'integer', (c) =>
          c.notNull().references('domains.id').onDelete('cascade'),
        )
        .addColumn('space_id', 'integer', (c) => c.references('spaces.id').onDelete('cascade'))
        .addColumn('alias', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('title', 'text')
        .addColumn('title_locked', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('target_type', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('country_target', 'text')
        .addColumn('platform_target', 'text')
        .addColumn('language_target', 'text')
        .addColumn('rotation_target', 'text')
        .addColumn('last_rotation', 'integer')
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('privacy', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('privacy_password', 'text')
        .addColumn('password', 'text')
        .addColumn('expiration_url', 'text')
        .addColumn('expiration_clicks', 'integer')
        .addColumn('clicks', big, (c) => c.notNull().defaultTo(0))
        .addColumn('ends_at', big)
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addUniqueConstraint('links_domain_alias', ['domain_id', 'alias'])
        .execute()
      await db.schema.createIndex('links_user_id').on('links').columns(['user_id', 'id']).execute()
      await db.schema.createIndex('links_space').on('links').column('space_id').execute()

      await db.schema
        .createTable('link_pixels')
        .addColumn('link_id', 'integer', (c) =>
          c.notNull().references('links.id').onDelete('cascade'),
        )
        .addColumn('pixel_id', 'integer', (c) =>
          c.notNull().references('pixels.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('link_pixels_pk', ['link_id', 'pixel_id'])
        .execute()
      await db.schema
        .createIndex('link_pixels_pixel')
        .on('link_pixels')
        .column('pixel_id')
        .execute()

      await db.schema
        .createTable('settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute()
    },
  }
}
