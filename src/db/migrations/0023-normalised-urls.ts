import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'
import { normalHttpUrl } from '../../shared/formats.js'

/**
 * Stored URLs as the URL parser reads them. URLs are now stored as `new URL(x).href` (see
 * `normalHttpUrl`), which is where a redirect to them goes; a URL stored before as it was typed
 * (`http://evil.test\@example.com/`, which goes to evil.test) is shown as that too: links' `url`,
 * `expiration_url` and targeting values, domains' index and not-found pages, webhooks' `url`.
 * Rows are read a batch at a time, by id, and only a row with a value that changes is written;
 * a value that is not an http(s) URL is left as it is. `updated_at` is left alone: the owner
 * changed nothing. The search triggers of links index the new `url` as they do for every update.
 */

const BATCH = 1000

type Kind = 'url' | 'targets'

const TABLES: { table: string; columns: Record<string, Kind> }[] = [
  {
    table: 'links',
    columns: {
      url: 'url',
      expiration_url: 'url',
      country_target: 'targets',
      platform_target: 'targets',
      language_target: 'targets',
      rotation_target: 'targets',
    },
  },
  { table: 'domains', columns: { index_page: 'url', not_found_page: 'url' } },
  { table: 'webhooks', columns: { url: 'url' } },
]

/** A targeting list (JSON of `{key?, value}` entries) with each value normalised. */
function normalTargets(text: string): string {
  let entries: unknown
  try {
    entries = JSON.parse(text)
  } catch {
    return text
  }
  if (!Array.isArray(entries)) return text
  let changed = false
  const out = entries.map((entry: unknown) => {
    if (entry === null || typeof entry !== 'object') return entry
    const value = (entry as { value?: unknown }).value
    if (typeof value !== 'string') return entry
    const normal = normalHttpUrl(value)
    if (normal === value) return entry
    changed = true
    return { ...entry, value: normal }
  })
  return changed ? JSON.stringify(out) : text
}

function normal(kind: Kind, value: unknown): unknown {
  if (typeof value !== 'string') return value
  return kind === 'url' ? normalHttpUrl(value) : normalTargets(value)
}

async function normaliseTable(
  db: Kysely<unknown>,
  table: string,
  columns: Record<string, Kind>,
): Promise<void> {
  const names = Object.keys(columns)
  const selected = sql.join([sql.ref('id'), ...names.map((name) => sql.ref(name))])
  for (let after = 0; ;) {
    const { rows } = await sql<Record<string, unknown> & { id: number }>`
      select ${selected} from ${sql.table(table)}
      where id > ${after} order by id limit ${BATCH}`.execute(db)
    for (const row of rows) {
      const changes = names.flatMap((name) => {
        const value = normal(columns[name]!, row[name])
        return value === row[name] ? [] : [sql`${sql.ref(name)} = ${value}`]
      })
      if (changes.length === 0) continue
      await sql`update ${sql.table(table)} set ${sql.join(changes)} where id = ${row.id}`.execute(
        db,
      )
    }
    if (rows.length < BATCH) return
    after = Number(rows[rows.length - 1]!.id)
  }
}

export function normalisedUrls(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const { table, columns } of TABLES) await normaliseTable(db, table, columns)
    },
  }
}
