/**
 * Records of a CSV file, read with csv-parse as the bytes arrive: the encoding is taken from a
 * byte-order mark (UTF-8, UTF-16 LE or BE), else UTF-8 when the first 64 KiB are valid UTF-8,
 * else Latin-1 (Windows-1252). The header names the columns (trimmed, lower-cased). A record
 * that cannot be read (a wrong number of fields, a field over 1 MiB, a broken quote) becomes a
 * record with a problem, in its place, and reading goes on.
 */
import { parse } from 'csv-parse'
import { Readable } from 'node:stream'
import { TextDecoder } from 'node:util'

export interface CsvRecord {
  line: number
  fields: Record<string, string>
  problem: string | null
}

const SNIFF = 64 * 1024
export const MAX_FIELD = 1024 * 1024

async function* decoded(input: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<string> {
  let head = Buffer.alloc(0)
  let decoder: TextDecoder | null = null
  const choose = (bytes: Buffer, final: boolean): TextDecoder => {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8')
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le')
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be')
    try {
      // A multi-byte character cut at the end of the sniffed bytes is not an error.
      new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !final })
      return new TextDecoder('utf-8')
    } catch {
      return new TextDecoder('windows-1252')
    }
  }
  for await (const chunk of input) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
    if (decoder === null) {
      head = Buffer.concat([head, bytes])
      if (head.length < SNIFF) continue
      decoder = choose(head, false)
      yield decoder.decode(head, { stream: true })
      head = Buffer.alloc(0)
      continue
    }
    const text = decoder.decode(bytes, { stream: true })
    if (text !== '') yield text
  }
  if (decoder === null) {
    decoder = choose(head, true)
    yield decoder.decode(head)
  } else {
    const rest = decoder.decode()
    if (rest !== '') yield rest
  }
}

export async function* csvRecords(
  input: AsyncIterable<Buffer | Uint8Array>,
): AsyncGenerator<CsvRecord> {
  const skipped: string[] = []
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: MAX_FIELD,
  })
  parser.on('skip', (error: Error) => {
    skipped.push(
      /max_record_size|MAX_RECORD_SIZE/i.test(error.message)
        ? `A field is longer than ${MAX_FIELD} characters.`
        : `The row cannot be read as CSV: ${error.message.split(':')[0]}.`,
    )
  })
  Readable.from(decoded(input)).pipe(parser)
  let header: string[] | null = null
  let line = 0
  const problem = (message: string): CsvRecord => ({ line: ++line, fields: {}, problem: message })
  for await (const record of parser as AsyncIterable<string[]>) {
    while (skipped.length > 0) yield problem(skipped.shift()!)
    if (header === null) {
      header = record.map((name) => name.trim().toLowerCase())
      continue
    }
    if (record.length !== header.length) {
      yield problem(`The row has ${record.length} fields, the header ${header.length}.`)
      continue
    }
    const fields: Record<string, string> = {}
    header.forEach((name, i) => {
      if (name !== '' && !Object.hasOwn(fields, name)) fields[name] = record[i]!
    })
    yield { line: ++line, fields, problem: null }
  }
  while (skipped.length > 0) yield problem(skipped.shift()!)
}

/** The first of `names` the record has a non-empty value for. */
export function pick(fields: Record<string, string>, ...names: string[]): string | null {
  for (const name of names) {
    const value = fields[name]
    if (value !== undefined && value.trim() !== '') return value.trim()
  }
  return null
}
