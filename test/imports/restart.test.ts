/**
 * An import running in a `slink serve` process that is killed (SIGKILL: no chance to clean up)
 * must not stay `running` forever: the next process ends it `failed`, saying to run it again,
 * and running it again brings in only what the killed run had not written.
 */
import { rmSync } from 'node:fs'
import SQLite from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { API_KEY, eventually, startServer, type TestServer } from '../support/server.js'
import { ABANDONED_AFTER_MS } from '../../src/imports/run.js'
import { gated, phpShortApi, sourceApi, type Gate, type SourceApi } from '../support/source-apis.js'

const PAGES = 30
const PER_PAGE = 100

/** The first batch: the import writes 1,000 rows at a time, so 10 pages. */
const FIRST_BATCH_PAGES = 10

/**
 * phpShort's API with 3,000 links, 100 a page; the pages after the first batch are held until
 * the gate is released. The import asks for page 11 once its first batch is written.
 */
async function heldPhpShort(): Promise<SourceApi & { gate: Gate }> {
  const links = Array.from({ length: PAGES * PER_PAGE }, (_, i) => ({
    id: i + 1,
    alias: `slow-${i + 1}`,
    url: `https://example.com/${i + 1}`,
    domain: { id: 1, name: 'short.test' },
    clicks: 0,
    created_at: '2024-01-01T00:00:00.000000Z',
  }))
  const { answer, gate } = gated(phpShortApi('php-key', links, PER_PAGE), FIRST_BATCH_PAGES)
  return { ...(await sourceApi(answer)), gate }
}

const BOUNDARY = '----slink-restart'
const form = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('') + `--${BOUNDARY}--\r\n`

async function startImport(server: TestServer, api: SourceApi): Promise<number> {
  const res = await server.send('/api/v1/imports', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${API_KEY}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    body: form({ source: 'phpshort', url: api.url, key: 'php-key' }),
  })
  expect(res.status).toBe(202)
  return (JSON.parse(res.body) as { data: { id: number } }).data.id
}

type Shown = { status: string; error: string | null; counts: { created: number } }
const shown = async (server: TestServer, id: number) =>
  ((await server.api('GET', `/imports/${id}`)).json as { data: Shown }).data

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

describe('an import whose process is killed', () => {
  it('ends failed with the restart reason once the process is gone; running it again finishes it without duplicates', async () => {
    const api = await heldPhpShort()
    cleanup.push(() => api.close())
    const first = await startServer({ IMPORT_ALLOWED_HOSTS: '127.0.0.1' })
    cleanup.push(() => rmSync(first.dir, { recursive: true, force: true }))
    cleanup.push(() => first.process.kill('SIGKILL'))
    const id = await startImport(first, api)
    // The first batch of 1,000 written, and the run waiting for the page after it.
    await api.gate.asked(FIRST_BATCH_PAGES + 1)
    const during = await shown(first, id)
    expect(during.counts.created).toBe(1000)
    expect(during.status).toBe('running')
    first.process.kill('SIGKILL')
    await first.process.exited

    // An import is abandoned once its heartbeat is ABANDONED_AFTER_MS old: the time that passes
    // while no process runs it is written into its record, not waited for.
    const file = new SQLite(first.dbPath)
    try {
      const aged = file
        .prepare('UPDATE imports SET updated_at = updated_at - ? WHERE id = ?')
        .run(ABANDONED_AFTER_MS, id)
      expect(aged.changes).toBe(1)
    } finally {
      file.close()
    }
    const second = await startServer({
      IMPORT_ALLOWED_HOSTS: '127.0.0.1',
      DATABASE_URL: `sqlite:${first.dbPath}`,
    })
    cleanup.push(() => second.stop())
    // The new process sweeps as it starts: the import has ended before it answers.
    const after = await shown(second, id)
    expect(after).toMatchObject({
      status: 'failed',
      error: 'interrupted by a restart; run it again — rows already imported are not duplicated',
    })
    const written = after.counts.created
    expect(written % 1000).toBe(0)
    expect(written).toBeGreaterThanOrEqual(1000)
    expect(written).toBeLessThan(PAGES * PER_PAGE)

    api.gate.release()
    const again = await startImport(second, api)
    const done = await eventually(
      () => shown(second, again),
      (s) => s.status !== 'running' && s.status !== 'queued',
      30_000,
    )
    expect(done).toMatchObject({
      status: 'done',
      error: null,
      counts: {
        created: PAGES * PER_PAGE - written,
        renamed: 0,
        skipped: 0,
        duplicate: written,
        invalid: 0,
        unknown_domain: 0,
      },
    })
    const links = (await second.api('GET', '/links?per_page=10')).json as {
      meta: { total: number }
    }
    expect(links.meta.total).toBe(PAGES * PER_PAGE)
  }, 120_000)

  it('a SIGTERM ends its runs after their current batch, failed with the same reason, before the process exits', async () => {
    const api = await heldPhpShort()
    cleanup.push(() => api.close())
    const server = await startServer({ IMPORT_ALLOWED_HOSTS: '127.0.0.1' })
    cleanup.push(() => rmSync(server.dir, { recursive: true, force: true }))
    const id = await startImport(server, api)
    // Stopped while the source keeps page 11 waiting: the stop ends that request too.
    await api.gate.asked(FIRST_BATCH_PAGES + 1)
    server.process.kill('SIGTERM')
    expect(await server.process.exited).toBe(0)
    const db = new SQLite(server.dbPath, { readonly: true })
    try {
      const row = db.prepare('SELECT status, error, created FROM imports WHERE id = ?').get(id) as {
        status: string
        error: string
        created: number
      }
      expect(row.status).toBe('failed')
      expect(row.error).toBe(
        'interrupted by a restart; run it again — rows already imported are not duplicated',
      )
      const links = db.prepare('SELECT count(*) AS n FROM links').get() as { n: number }
      // Every written batch is counted, and nothing half-written stays.
      expect(links.n).toBe(row.created)
      expect(row.created % 1000).toBe(0)
      expect(row.created).toBe(1000)
    } finally {
      db.close()
    }
  }, 60_000)
})
