import type { Kysely } from 'kysely'
import type { Dialect } from '../connect.js'
import { columnsFor } from './columns.js'

/**
 * What a dry run looks up in its own report instead of keeping in memory (so its memory does
 * not grow with the file): which source keys and which aliases it has planned so far.
 * - `import_rows.key_hash`: a 53-bit hash of the row's source key, indexed (keys may be
 *   2 KiB of URL, too long for an index entry on every engine); lookups compare the key too;
 * - `import_rows.domain_id`: the domain of the link the row creates (null when it creates
 *   none), indexed with the alias.
 */
export function importRowLookups(dialect: Dialect) {
  const { big } = columnsFor(dialect)
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('import_rows').addColumn('key_hash', big).execute()
      await db.schema.alterTable('import_rows').addColumn('domain_id', 'integer').execute()
      await db.schema
        .createIndex('import_rows_key_hash')
        .on('import_rows')
        .columns(['import_id', 'key_hash'])
        .execute()
      await db.schema
        .createIndex('import_rows_alias')
        .on('import_rows')
        .columns(['import_id', 'domain_id', 'alias'])
        .execute()
    },
  }
}
