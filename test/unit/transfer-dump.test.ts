/**
 * The dump format without a database: the writer and the parser agree on every value, lines
 * survive any chunking and gzip, and every malformed header, row or value is refused with the
 * message an operator sees.
 */
import { PassThrough, Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { readHeader, type DumpHeader } from '../../src/transfer/dump-format.js'
import { dumpLines } from '../../src/transfer/dump-lines.js'
import { DumpParser } from '../../src/transfer/dump-parser.js'
import { DumpWriter } from '../../src/transfer/dump-writer.js'
import { checkRow, kindOfType, misfit, type Value } from '../../src/transfer/values.js'

const header: DumpHeader = {
  format: 'slink-dump',
  version: 1,
  generator: 'slink test',
  created_at: '2026-11-22T00:00:00.000Z',
  source: 'sqlite',
  migrations: ['0001-initial'],
  tables: [
    { name: 'people', columns: ['id', 'name', 'at'], rows: 4, last_id: 9 },
    { name: 'notes', columns: ['body'], rows: 0, last_id: null },
  ],
}
const rows: Value[][] = [
  [1, 'Ann', Number.MAX_SAFE_INTEGER],
  [2, 'Ünïcødé 🚀 漢字 עברית \u2028\u2029 "q" \\ \n\t\u0001', -Number.MAX_SAFE_INTEGER],
  [3, '', null],
  [9, null, 0],
]

async function written(): Promise<Buffer> {
  const out = new PassThrough()
  const chunks: Buffer[] = []
  out.on('data', (chunk: Buffer) => chunks.push(chunk))
  const writer = new DumpWriter(out)
  await writer.line(JSON.stringify(header))
  await writer.line(JSON.stringify({ table: 'people' }))
  for (const row of rows) await writer.line(JSON.stringify(row))
  await writer.line(JSON.stringify({ table: 'notes' }))
  await writer.end(rows.length)
  return Buffer.concat(chunks)
}

/** Feeds `bytes` to the parser in chunks of `size` bytes; returns the rows read per table. */
async function parsed(bytes: Buffer, size = 7): Promise<Record<string, Value[][]>> {
  const chunks = function* () {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
  }
  const parser = new DumpParser(dumpLines(Readable.from(chunks())))
  const h = await parser.header()
  const out: Record<string, Value[][]> = {}
  for await (const part of parser.parts(h, (t) =>
    t.columns.map((c) => (c === 'name' || c === 'body' ? 'text' : 'integer')),
  )) {
    if (part.kind === 'table') out[part.table.name] = []
    else out[part.table.name]!.push(...part.rows)
  }
  return out
}

const failure = (bytes: Buffer) =>
  parsed(bytes).then(
    () => 'accepted',
    (e: Error) => e.message,
  )

describe('the dump writer and parser', () => {
  it('carry every value exactly, whatever the chunking, plain or gzipped', async () => {
    const bytes = await written()
    for (const size of [1, 7, 64 * 1024]) {
      expect(await parsed(bytes, size)).toEqual({ people: rows, notes: [] })
    }
    expect(await parsed(gzipSync(bytes), 3)).toEqual({ people: rows, notes: [] })
  })

  it.each([
    [
      'a truncated gzip stream',
      async () => gzipSync(await written()).subarray(0, 60),
      /^the dump's gzip data is damaged/,
    ],
    [
      'bytes that are not UTF-8',
      async () => Buffer.concat([await written(), Buffer.from([0xff, 0x0a])]),
      /^the dump is not valid UTF-8 text$/,
    ],
    [
      'a missing end line',
      async () => Buffer.from((await written()).toString().replace(/\{"end".*\n$/, '')),
      /^the dump is truncated: it ends before its end line$/,
    ],
    [
      'a row too few',
      async () => Buffer.from((await written()).toString().replace('[9,null,0]\n', '')),
      /^dump line 6: a row of table people expected, got an object$/,
    ],
    [
      'a row too many',
      async () =>
        Buffer.from(
          (await written()).toString().replace('[9,null,0]\n', '[9,null,0]\n[10,null,0]\n'),
        ),
      /^dump line 7: the start of table notes expected$/,
    ],
    [
      'a float',
      async () => Buffer.from((await written()).toString().replace('[3,"",null]', '[3.5,"",null]')),
      /^dump line 5: people.id: an integer expected, got the number 3.5$/,
    ],
    [
      'an unsafe integer',
      async () =>
        Buffer.from((await written()).toString().replace('[3,"",null]', '[3,"",9007199254740993]')),
      /^dump line 5: people.at: an integer expected, got 9007199254740992, beyond ±\(2\^53 − 1\)$/,
    ],
    [
      'a value too many',
      async () => Buffer.from((await written()).toString().replace('[3,"",null]', '[3,"",null,1]')),
      /^dump line 5: a row of table people has 3 values, got 4$/,
    ],
    [
      'an altered value',
      async () => Buffer.from((await written()).toString().replace('"Ann"', '"Anne"')),
      /^the dump is damaged: its checksum does not match its contents$/,
    ],
  ])('refuse %s', async (_, make, message) => {
    expect(await failure(await make())).toMatch(message)
  })
})

describe('the dump header', () => {
  const line = (change: Record<string, unknown>) => JSON.stringify({ ...header, ...change })
  it.each([
    [undefined, 'the input is empty, not a slink dump'],
    ['', 'not a slink dump (its first line is not a slink-dump header)'],
    ['[1,2]', 'not a slink dump (its first line is not a slink-dump header)'],
    [line({ format: 'pg_dump' }), 'not a slink dump (its first line is not a slink-dump header)'],
    [line({ version: 0 }), 'not a slink dump (its first line is not a slink-dump header)'],
    [
      line({ version: 3 }),
      'the dump has format version 3, newer than this slink reads (1): import it with a newer slink',
    ],
    [line({ source: 'mysql' }), 'malformed dump header: unknown source engine'],
    [line({ migrations: [] }), 'malformed dump header: no valid migration list'],
    [line({ tables: {} }), 'malformed dump header: no table list'],
    [
      line({ tables: [{ name: 'a', columns: [], rows: 0, last_id: null }] }),
      'malformed dump header: table 1 has no valid column list',
    ],
    [
      line({ tables: [{ name: 'a', columns: ['x', 'x'], rows: 0, last_id: null }] }),
      'malformed dump header: table 1 has no valid column list',
    ],
    [
      line({ tables: [{ name: 'a', columns: ['x'], rows: -1, last_id: null }] }),
      'malformed dump header: table 1 has no valid row count',
    ],
    [
      line({ tables: [{ name: 'a', columns: ['x'], rows: 1, last_id: 1.5 }] }),
      'malformed dump header: table 1 has an invalid last_id',
    ],
    [
      line({ tables: [header.tables[0], header.tables[0]] }),
      'malformed dump header: a table is listed twice',
    ],
  ])('refuses %j', (text, message) => {
    expect(() => readHeader(text)).toThrow(message)
  })

  it('reads a valid header back', () => {
    expect(readHeader(JSON.stringify(header))).toEqual(header)
  })
})

describe('values', () => {
  it.each([
    ['INTEGER', 'integer'],
    ['int4', 'integer'],
    ['int8', 'integer'],
    ['bigint', 'integer'],
    ['TEXT', 'text'],
    ['blob', null],
    ['timestamptz', null],
    ['bool', null],
  ])('a column of type %s has kind %s', (type, kind) => {
    expect(kindOfType(type)).toBe(kind)
  })

  it.each([
    ['fits', null, 'integer', null],
    ['null', null, 'text', null],
    ['empty text', '', 'text', null],
    ['zero', 0, 'integer', null],
    ['the lowest safe integer', -Number.MAX_SAFE_INTEGER, 'integer', null],
    [
      '2^53',
      Number.MAX_SAFE_INTEGER + 1,
      'integer',
      'an integer expected, got 9007199254740992, beyond ±(2^53 − 1)',
    ],
    ['a bigint', 10n, 'integer', 'an integer expected, got 10, beyond ±(2^53 − 1)'],
    ['digits as text', '1', 'integer', 'an integer expected, got text'],
    ['a number', 1, 'text', 'text expected, got the number 1'],
    ['a blob', Buffer.from('x'), 'text', 'text expected, got a blob'],
    ['a boolean', true, 'integer', 'an integer expected, got a boolean'],
  ] as const)('a value (%s) in a column: %s', (_, value, kind, problem) => {
    expect(misfit(value, kind)).toBe(problem)
  })

  it('names the place of a misfit', () => {
    expect(() => checkRow([1, 2], 't', ['a', 'b'], ['integer', 'text'], 'dump line 3')).toThrow(
      'dump line 3: t.b: text expected, got the number 2',
    )
  })
})
