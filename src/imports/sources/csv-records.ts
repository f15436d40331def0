/**
 * Records of a CSV file, read with csv-parse as the bytes arrive: the encoding is taken from a
 * byte-order mark (UTF-8, UTF-16 LE or BE), else UTF-8 when the first 64 KiB are valid UTF-8,
 * else Latin-1 (Windows-1252). The header names the columns (trimmed, lower-cased). A record
 * that cannot be read (a wrong number of fields, a field over 1 MiB, a broken quote) becomes a
 * record with a problem, in its place, and reading goes on.
 *
 * Memory stays flat: a line is held until it is complete, and a line over 1 MiB is dropped as
 * it arrives and replaced by a marker that becomes that row's problem. (csv-parse's own
 * `max_record_size` does not recover after its first refusal: every row after it is lost.)
 */
import { parse } from 'csv-parse'
import { TextDecoder } from 'node:util'

export interface CsvRecord {
  line: number
  fields: Record<string, string>
  problem: string | null
}

const SNIFF = 64 * 1024
export const MAX_FIELD = 1024 * 1024

export async function* decoded(input: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<string> {
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

const TOO_LONG = '\u0001'

/**
 * Whole lines, with any line over MAX_FIELD characters replaced by the TOO_LONG marker. The
 * marker keeps the dropped line's ending (`\r\n` or `\n`): csv-parse takes its record
 * delimiter from the first line, and a marker ending otherwise would join the next row to it.
 */
async function* boundedLines(input: AsyncIterable<string>): AsyncGenerator<string> {
  let line = ''
  let dropping = false
  let last = ''
  for await (const chunk of input) {
    let out = ''
    let start = 0
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      const part = chunk.slice(start, nl + 1)
      const crlf = nl > 0 ? chunk[nl - 1] === '\r' : last === '\r'
      if (dropping || line.length + part.length > MAX_FIELD + 1)
        out += `${TOO_LONG}${crlf ? '\r\n' : '\n'}`
      else out += line + part
      line = ''
      dropping = false
      start = nl + 1
    }
    const rest = chunk.slice(start)
    if (!dropping) {
      if (line.length + rest.length > MAX_FIELD) {
        dropping = true
        line = ''
      } else line += rest
    }
    if (chunk !== '') last = chunk[chunk.length - 1]!
    if (out !== '') yield out
  }
  if (dropping) yield TOO_LONG
  else if (line !== '') yield line
}

export async function* csvRecords(
  input: AsyncIterable<Buffer | Uint8Array>,
): AsyncGenerator<CsvRecord> {
  // Records and refusals in the order the parser meets them: both hooks run as it parses.
  const queue: (string[] | string)[] = []
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (record: string[]) => {
      queue.push(record)
      return null
    },
    on_skip: (error: Error | undefined) => {
      queue.push(`The row cannot be read as CSV: ${(error?.message ?? 'error').split(':')[0]}.`)
    },
  })
  let failure: Error | null = null
  parser.on('error', (error: Error) => (failure = error))
  parser.resume()
  const feed = (chunk: string | null) =>
    new Promise<void>((resolve) => {
      if (chunk === null) parser.end(() => resolve())
      else parser.write(chunk, () => resolve())
    })
  let header: string[] | null = null
  let line = 0
  const problem = (message: string): CsvRecord => ({ line: ++line, fields: {}, problem: message })
  function* drain(): Generator<CsvRecord> {
    for (const item of queue.splice(0)) {
      if (typeof item === 'string') {
        yield problem(item)
        continue
      }
      if (header === null) {
        header = item.map((name) => name.trim().toLowerCase())
        continue
      }
      if (item.some((field) => field.includes(TOO_LONG))) {
        yield problem(`A line is longer than ${MAX_FIELD} characters.`)
        continue
      }
      if (item.length !== header.length) {
        yield problem(`The row has ${item.length} fields, the header ${header.length}.`)
        continue
      }
      const fields: Record<string, string> = {}
      header.forEach((name, i) => {
        if (name !== '' && !Object.hasOwn(fields, name)) fields[name] = item[i]!
      })
      yield { line: ++line, fields, problem: null }
    }
  }
  for await (const chunk of boundedLines(decoded(input))) {
    await feed(chunk)
    if (failure) throw failure
    yield* drain()
  }
  await feed(null)
  if (failure) throw failure
  yield* drain()
}

/** The first of `names` the record has a non-empty value for. */
export function pick(fields: Record<string, string>, ...names: string[]): string | null {
  for (const name of names) {
    const value = fields[name]
    if (value !== undefined && value.trim() !== '') return value.trim()
  }
  return null
}
