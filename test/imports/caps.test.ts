/**
 * What an import through the routes may cost: JSON sources are read as they stream in (rows
 * come out before the file is read through), an item over its bounds is an invalid row in its
 * place, a run stops at its row cap, and its report keeps a bounded number of invalid rows while
 * its counts stay exact.
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { KEPT_INVALID_ROWS, MAX_ROWS_PER_IMPORT, TOO_MANY_ROWS } from '../../src/imports/caps.js'
import type { SourceRow } from '../../src/imports/row.js'
import { readCsv } from '../../src/imports/sources/csv.js'
import { readBitly, readDub, readSink } from '../../src/imports/sources/files.js'
import { MAX_ITEM_CHARS, MAX_ITEM_TOKENS } from '../../src/imports/sources/json-items.js'
import { createTestApp, type TestApp } from '../support/app.js'

async function* once(text: string): AsyncGenerator<Buffer> {
  yield Buffer.from(text)
}

type Reader = (input: AsyncIterable<Buffer>) => AsyncIterable<SourceRow>

/**
 * A JSON list sent in `chunks` pieces; each pull notes how many rows the reader had handed out
 * by then.
 */
function streamed(items: string[], chunks: number) {
  const text = `{"links":[${items.join(',')}]}`
  const size = Math.ceil(text.length / chunks)
  const rowsAtPull: number[] = []
  let rows = 0
  async function* input(): AsyncGenerator<Buffer> {
    for (let at = 0; at < text.length; at += size) {
      rowsAtPull.push(rows)
      yield Buffer.from(text.slice(at, at + size))
    }
  }
  return { input: input(), rowsAtPull, counted: () => rows++ }
}

describe('JSON sources', () => {
  const items = Array.from(
    { length: 200 },
    (_, i) =>
      `{"id":"k${i}","url":"https://example.com/${i}","long_url":"https://example.com/${i}"}`,
  )
  const readers: [string, Reader][] = [
    ['sink', readSink],
    ['bitly', readBitly],
    ['dub', readDub],
  ]

  for (const [name, read] of readers) {
    it(`${name}: rows come out while the file is still arriving`, async () => {
      const source = streamed(items, 20)
      const urls: (string | null)[] = []
      for await (const row of read(source.input)) {
        urls.push(row.url)
        source.counted()
      }
      expect(urls).toEqual(items.map((_, i) => `https://example.com/${i}`))
      // Read through before any row came out, the reader would show 0 rows at every pull.
      expect(source.rowsAtPull).toHaveLength(20)
      expect(source.rowsAtPull.at(-1)).toBeGreaterThan(0)
    })
  }

  for (const [name, read] of [readers[0]!, readers[1]!]) {
    it(`${name}: a reader stopped early (a cap) closes the file it reads`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'slink-caps-'))
      try {
        const path = join(dir, 'links.json')
        writeFileSync(path, `{"links":[${items.join(',')}]}`)
        // Small chunks: the file is still open when the reader stops.
        const file = createReadStream(path, { highWaterMark: 256 })
        const closed = new Promise<void>((resolve) => file.once('close', () => resolve()))
        for await (const row of read(file as AsyncIterable<Buffer>)) {
          expect(row.url).toBe('https://example.com/0')
          break
        }
        await closed
        expect(file.destroyed).toBe(true)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  }

  it('an item over its bounds is an invalid row in its place; what is not the list is skipped', async () => {
    const big = `{"id":"big","url":"https://example.com/big","title":"${'x'.repeat(MAX_ITEM_CHARS)}"}`
    const many = `{"id":"many","url":"https://example.com/many","k":[${Array(MAX_ITEM_TOKENS).fill(1).join(',')}]}`
    const text =
      `{"skipped":[${Array(50_000).fill('{}').join(',')}],"links":[` +
      `{"id":"a","url":"https://example.com/a"},${big},${many},{"id":"b","url":"https://example.com/b"}]}`
    const rows: [number, string | null, string | null][] = []
    for await (const row of readSink(once(text))) rows.push([row.line, row.url, row.problem])
    const problem = `The item is larger than ${MAX_ITEM_TOKENS} values or ${MAX_ITEM_CHARS} characters.`
    expect(rows).toEqual([
      [1, 'https://example.com/a', null],
      [2, null, problem],
      [3, null, problem],
      [4, 'https://example.com/b', null],
    ])
  })

  it('broken, nested too deeply, or without the list: the import stops with the reason', async () => {
    const cases: [string, string][] = [
      ['{"links":[{"url":"https://example.com/a"},{"url":', 'The file is not valid JSON.'],
      [`[${'['.repeat(40)}${']'.repeat(40)}]`, 'The JSON is nested too deeply.'],
      [`{"x":${'['.repeat(40)}${']'.repeat(40)},"links":[]}`, 'The JSON is nested too deeply.'],
      ['{"other":[]}', 'The JSON has no "links" list.'],
      ['{"links":{}}', 'The JSON has no "links" list.'],
      ['not json', 'The file is not valid JSON.'],
    ]
    for (const [text, message] of cases) {
      const read = async () => {
        for await (const row of readSink(once(text))) void row
      }
      await expect(read(), text).rejects.toThrow(new Error(message))
    }
  })
})

describe('caps of a run', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await createTestApp()
  })
  afterEach(async () => {
    await t.close()
  })

  async function run(csv: string, extra: { maxRows?: number; keptInvalid?: number }) {
    const record = await t.services.imports.begin(t.userA, {
      source: 'csv',
      origin: 'links.csv',
      scope: 'csv',
      dryRun: true,
      onConflict: 'skip',
    })
    const summary = await t.services.imports.run(
      record,
      'csv',
      readCsv(once(csv)),
      t.defaultDomainId,
      {
        batchSize: 4,
        ...(extra.maxRows ? { maxRows: { rows: extra.maxRows, message: TOO_MANY_ROWS } } : {}),
        ...(extra.keptInvalid !== undefined ? { keptInvalid: extra.keptInvalid } : {}),
      },
    )
    const report = await t.services.imports.rows(t.userA, record.id, 1, 100)
    return { summary, report: report.rows.map((r) => [r.line, r.outcome]), total: report.total }
  }

  const csv = (lines: string[]) => ['url,alias', ...lines].join('\n')

  it('stops at its row cap: the rows before it are done and reported, the import fails saying why', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => `https://example.com/${i},a${i}`)
    const { summary, total } = await run(csv(rows), { maxRows: 6 })
    expect(summary).toEqual({
      status: 'failed',
      counts: { created: 6, renamed: 0, skipped: 0, duplicate: 0, invalid: 0, unknown_domain: 0 },
      error: TOO_MANY_ROWS,
    })
    expect(total).toBe(6)
    expect(TOO_MANY_ROWS).toBe(
      `The source has more than ${MAX_ROWS_PER_IMPORT} rows: only the first ${MAX_ROWS_PER_IMPORT} ` +
        'were read. Split the file (or ask the operator to run slink import-links, which has no such cap).',
    )
  })

  it('keeps the first invalid rows in its report, every other row, and exact counts', async () => {
    const lines = [
      'nope,x1',
      'https://example.com/1,ok1',
      'nope,x2',
      'nope,x3',
      'https://example.com/2,ok2',
      'nope,x4',
      'nope,x5',
    ]
    const { summary, report } = await run(csv(lines), { keptInvalid: 2 })
    expect(summary.counts).toEqual({
      created: 2,
      renamed: 0,
      skipped: 0,
      duplicate: 0,
      invalid: 5,
      unknown_domain: 0,
    })
    expect(report).toEqual([
      [1, 'invalid'],
      [2, 'created'],
      [3, 'invalid'],
      [5, 'created'],
    ])
    expect(KEPT_INVALID_ROWS).toBe(1000)
  })
})
