/**
 * Schema migrations, kept in code and applied in order. `slink migrate` runs them; so does
 * `slink serve` at start-up, which makes a fresh database usable with no extra step.
 */
import { Migrator, type Migration, type MigrationProvider, type Kysely } from 'kysely'
import type { Db, Dialect } from './connect.js'
import { initial } from './migrations/0001-initial.js'
import { clicks } from './migrations/0002-clicks.js'
import { clickStatsByMonth } from './migrations/0003-click-stats-by-month.js'
import { dashboardAccounts } from './migrations/0004-dashboard-accounts.js'
import { webhooks } from './migrations/0005-webhooks.js'
import { imports } from './migrations/0006-imports.js'
import { apiKeyNames } from './migrations/0007-api-key-names.js'
import { linkSearch } from './migrations/0008-link-search.js'
import { importRowLookups } from './migrations/0009-import-row-lookups.js'
import { webhookAttempts } from './migrations/0010-webhook-attempts.js'
import { searchBacklog } from './migrations/0011-search-backlog.js'
import { authGeneration } from './migrations/0012-auth-generation.js'
import { postgresAliasSuffixes } from './migrations/0013-postgres-alias-suffixes.js'
import { linkCounts } from './migrations/0014-link-counts.js'
import { postgresLinkCounts } from './migrations/0015-postgres-link-counts.js'
import { shortAliasSuffixes } from './migrations/0016-short-alias-suffixes.js'
import { searchChangedText } from './migrations/0017-search-changed-text.js'
import { shortKeyPrefixes } from './migrations/0019-short-key-prefixes.js'
import { standardSearch } from './migrations/0020-standard-search.js'
import { normalisedUrls } from './migrations/0023-normalised-urls.js'
import { webhookOutboxPendingAge } from './migrations/0024-webhook-outbox-pending-age.js'
import { clickStream } from './migrations/0025-click-stream.js'
import { clickSources } from './migrations/0028-click-sources.js'
import { redirectRules } from './migrations/0030-redirect-rules.js'
import { socialPreviews } from './migrations/0031-social-previews.js'
import { searchIndexLevel } from './migrations/0032-search-index-level.js'
import { tags } from './migrations/0026-tags.js'
import { utmTemplates } from './migrations/0027-utm-templates.js'

function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-initial': initial(dialect),
    '0002-clicks': clicks(dialect),
    '0003-click-stats-by-month': clickStatsByMonth(dialect),
    '0004-dashboard-accounts': dashboardAccounts(dialect),
    '0005-webhooks': webhooks(dialect),
    '0006-imports': imports(dialect),
    '0007-api-key-names': apiKeyNames(dialect),
    '0008-link-search': linkSearch(dialect),
    '0009-import-row-lookups': importRowLookups(dialect),
    '0010-webhook-attempts': webhookAttempts(dialect),
    '0011-search-backlog': searchBacklog(dialect),
    '0012-auth-generation': authGeneration(dialect),
    '0013-postgres-alias-suffixes': postgresAliasSuffixes(dialect),
    '0014-link-counts': linkCounts(dialect),
    '0015-postgres-link-counts': postgresLinkCounts(dialect),
    '0016-short-alias-suffixes': shortAliasSuffixes(dialect),
    '0017-search-changed-text': searchChangedText(dialect),
    '0019-short-key-prefixes': shortKeyPrefixes(),
    '0020-standard-search': standardSearch(dialect),
    '0023-normalised-urls': normalisedUrls(dialect),
    '0024-webhook-outbox-pending-age': webhookOutboxPendingAge(),
    '0025-click-stream': clickStream(dialect),
    '0026-tags': tags(dialect),
    '0027-utm-templates': utmTemplates(dialect),
    '0028-click-sources': clickSources(),
    '0030-redirect-rules': redirectRules(),
    '0031-social-previews': socialPreviews(),
    '0032-search-index-level': searchIndexLevel(dialect),
  }
}

class CodeMigrations implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.dialect)
  }
}

export interface MigrationReport {
  applied: string[]
}

export async function migrate(db: Db): Promise<MigrationReport> {
  const migrator = new Migrator({
    db: db.kysely as unknown as Kysely<unknown>,
    provider: new CodeMigrations(db.dialect),
    // Migrations are independent of each other past 0001: a database that has a later one
    // (from a build made between two merges) takes an earlier one it lacks, instead of refusing.
    allowUnorderedMigrations: true,
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(String(error))
  return {
    applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName),
  }
}

/** The migrations this version knows that the database has not applied (none: the schema is current). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely as unknown as Kysely<unknown>,
    provider: new CodeMigrations(db.dialect),
  })
  return (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name)
}

/** Every migration this version knows, in the order they apply. */
export function migrationNames(): string[] {
  return Object.keys(migrations('sqlite')).sort()
}

/**
 * Applies the migrations up to and including `name`, and no further: the schema an older dump
 * was made with (`slink import` migrates the rest once the rows are in).
 */
export async function migrateTo(db: Db, name: string): Promise<MigrationReport> {
  const migrator = new Migrator({
    db: db.kysely as unknown as Kysely<unknown>,
    provider: new CodeMigrations(db.dialect),
  })
  const { error, results } = await migrator.migrateTo(name)
  if (error) throw error instanceof Error ? error : new Error(String(error))
  return {
    applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName),
  }
}
