/**
 * `slink import-links`: links from another shortener into one user's account, from an export
 * file or through the source's API (the operator's command may reach any address). Each row
 * that is not simply created is listed on stdout (line, outcome, alias, reason); the summary
 * goes to stderr, after a progress line on a terminal.
 */
import { createReadStream, statSync } from 'node:fs'
import { basename } from 'node:path'
import { loadConfig } from '../config.js'
import { openDatabase } from '../db/connect.js'
import { migrate } from '../db/migrate.js'
import { ANY_ADDRESS, jsonFetch } from '../imports/fetch.js'
import type { OnConflict } from '../imports/planner.js'
import type { SourceRow } from '../imports/row.js'
import {
  API_SOURCES,
  FILE_SOURCES,
  isApiSource,
  isFileSource,
  SOURCE_NAMES,
} from '../imports/sources/index.js'
import { createServices } from '../composition/services.js'
import { formatCount } from '../transfer/progress.js'
import { UserInputError } from '../users/service.js'
import { parseCommand, UsageError } from './args.js'
import { lines, type CliIo } from './io.js'

export class ImportFailed extends Error {}

const REDRAW_MS = 100

async function* counted(
  input: AsyncIterable<Buffer | string>,
  onBytes: (n: number) => void,
): AsyncGenerator<Buffer> {
  for await (const chunk of input) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
    onBytes(bytes.length)
    yield bytes
  }
}

export async function importLinksCommand(args: string[], io: CliIo): Promise<void> {
  const { values, switches } = parseCommand(args, {
    values: ['from', 'email', 'file', 'url', 'key', 'on-conflict'],
    switches: ['dry-run', 'progress', 'no-progress'],
  })
  const source = values.from
  if (source === undefined) throw new UsageError(`--from is required: ${SOURCE_NAMES.join(', ')}`)
  if (values.email === undefined) throw new UsageError('--email is required')
  const onConflict = values['on-conflict'] ?? 'skip'
  if (onConflict !== 'skip' && onConflict !== 'rename')
    throw new UsageError('--on-conflict must be skip or rename')
  const api = isApiSource(source)
  if (!api && !isFileSource(source))
    throw new UsageError(`unknown source "${source}": ${SOURCE_NAMES.join(', ')}`)
  if (api && (values.url === undefined || values.key === undefined || values.file !== undefined))
    throw new UsageError(`--from ${source} reads an API: give --url and --key`)
  if (!api && (values.file === undefined || values.url !== undefined))
    throw new UsageError(`--from ${source} reads a file: give --file`)
  let base: URL | null = null
  if (api) {
    try {
      base = new URL(values.url!)
    } catch {
      throw new UsageError(`--url is not a URL: ${values.url}`)
    }
  }
  const lastSwitch = switches.filter((s) => s.endsWith('progress')).at(-1)
  const bars = io.isTTY.stderr && lastSwitch !== 'no-progress'
  const dryRun = switches.includes('dry-run')

  const config = loadConfig(io.env)
  const db = openDatabase(config.database)
  try {
    await migrate(db)
    const services = createServices(db, { titleFetch: false })
    const userId = await services.users.idOfEmail(values.email)
    if (userId === null) throw new UserInputError(`no user with email ${values.email}`)
    const domain = await services.domains.ensureDefault(config.publicUrl)

    let bytesDone = 0
    let bytesTotal = 0
    let rows: AsyncIterable<SourceRow>
    let scope: string
    let origin: string
    if (base !== null && isApiSource(source)) {
      origin = base.toString()
      scope = `${source} ${base.origin}${base.pathname.replace(/\/+$/, '')}`
      rows = API_SOURCES[source]({
        baseUrl: origin,
        key: values.key!,
        fetch: jsonFetch({ policy: ANY_ADDRESS }),
      })
    } else if (isFileSource(source)) {
      const path = values.file!
      try {
        bytesTotal = statSync(path).size
      } catch {
        throw new UserInputError(`cannot read ${path}`)
      }
      origin = basename(path)
      scope = source
      rows = FILE_SOURCES[source](
        counted(createReadStream(path) as AsyncIterable<Buffer>, (n) => (bytesDone += n)),
      )
    } else {
      throw new UsageError(`unknown source "${source}"`)
    }

    const record = await services.imports.begin(userId, {
      source,
      origin,
      scope,
      dryRun,
      onConflict: onConflict as OnConflict,
    })
    const started = performance.now()
    let drawn = 0
    const draw = (done: number) => {
      if (!bars || performance.now() - drawn < REDRAW_MS) return
      drawn = performance.now()
      const seconds = (drawn - started) / 1000
      const share =
        bytesTotal > 0 ? ` ${String(Math.floor((bytesDone / bytesTotal) * 100)).padStart(3)}%` : ''
      const rate = seconds > 0 ? `  ${formatCount(Math.round(done / seconds))} rows/s` : ''
      io.stderr.write(`\r\x1b[2Kimporting${share}  ${formatCount(done)} rows${rate}`)
    }
    const summary = await services.imports.run(record, scope, rows, domain.id, {
      onBatch: draw,
    })
    if (bars) io.stderr.write('\r\x1b[2K')

    const out = lines(io.stdout)
    for (let page = 1; ; page++) {
      const result = await services.imports.rows(userId, record.id, page, 1000)
      for (const r of result.rows) {
        if (r.outcome === 'created') continue
        out(`${r.line}\t${r.outcome}\t${r.alias ?? ''}\t${r.message ?? ''}`)
      }
      if (page * 1000 >= result.total) break
    }
    const c = summary.counts
    const total = Object.values(c).reduce((a, b) => a + b, 0)
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const line =
      `${dryRun ? 'dry run of' : 'imported'} ${formatCount(total)} rows from ${source} in ${seconds} s ` +
      `(import ${record.id}): ${c.created} created, ${c.renamed} renamed, ${c.skipped} skipped, ` +
      `${c.duplicate} already imported, ${c.invalid} invalid, ${c.unknown_domain} unknown domain` +
      (dryRun ? '; nothing was written' : '')
    if (summary.status === 'failed') {
      throw new ImportFailed(
        `the import stopped after ${formatCount(total)} rows: ${summary.error}; ` +
          (dryRun
            ? 'nothing was written'
            : `${c.created + c.renamed} links were written, run it again to import the rest`),
      )
    }
    io.stderr.write(`${line}\n`)
  } finally {
    await db.close()
  }
}
