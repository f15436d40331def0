import type { Kysely } from 'kysely'
import type { Dialect } from '../connect.js'
import { columnsFor } from './columns.js'

/**
 * Imports from other shorteners:
 * - `imports`: one run (dry or real) with its source, status and counts per outcome;
 * - `import_rows`: each source row's outcome in that run (the per-row report);
 * - `import_keys`: what makes a second run create nothing twice: per user, the source (with
 *   its base URL for an API source) and the row's original id or short URL, and the link it
 *   became. Deleting that link deletes its key, so a later import may bring it back.
 */
export function imports(dialect: Dialect) {
  const { big, withId } = columnsFor(dialect)
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withId(db.schema.createTable('imports'))
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('dry_run', 'integer', (c) => c.notNull())
        .addColumn('on_conflict', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('total', big, (c) => c.notNull())
        .addColumn('created', big, (c) => c.notNull())
        .addColumn('renamed', big, (c) => c.notNull())
        .addColumn('skipped', big, (c) => c.notNull())
        .addColumn('duplicate', big, (c) => c.notNull())
        .addColumn('invalid', big, (c) => c.notNull())
        .addColumn('unknown_domain', big, (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addColumn('finished_at', big)
        .execute()
      await db.schema.createIndex('imports_user').on('imports').columns(['user_id', 'id']).execute()

      await db.schema
        .createTable('import_rows')
        .addColumn('import_id', 'integer', (c) =>
          c.notNull().references('imports.id').onDelete('cascade'),
        )
        .addColumn('line', big, (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('source_key', 'text')
        .addColumn('alias', 'text')
        .addColumn('link_id', 'integer')
        .addColumn('message', 'text')
        .addPrimaryKeyConstraint('import_rows_pk', ['import_id', 'line'])
        .execute()

      await db.schema
        .createTable('import_keys')
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('source_key', 'text', (c) => c.notNull())
        .addColumn('link_id', 'integer', (c) =>
          c.notNull().references('links.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('import_keys_pk', ['user_id', 'source', 'source_key'])
        .execute()
    },
  }
}
