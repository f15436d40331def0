/**
 * Reads a dump's lines in order and checks them as they stream by: the header first; then each
 * table's section in the header's order with exactly the rows it announces, each row one value
 * of the right kind per column; then the end line, whose row total and SHA-256 must match
 * everything before it; then nothing. Any departure is a one-line error naming the dump line.
 */
import { createHash } from 'node:crypto'
import {
  asSection,
  asTrailer,
  readHeader,
  TransferError,
  type DumpHeader,
  type DumpTable,
} from './dump-format.js'
import { checkRow, type ColumnKind, type Value } from './values.js'

const BATCH_ROWS = 2000
const BATCH_CHARS = 2 * 1024 * 1024

export interface RowBatch {
  table: DumpTable
  rows: Value[][]
  /** The rows' lines as they are in the dump (JSON arrays). */
  lines: string[]
  /** Dump line number of the first row. */
  firstLine: number
}

export type DumpPart = { kind: 'table'; table: DumpTable } | ({ kind: 'rows' } & RowBatch)

const truncated = (where: string) => new TransferError(`the dump is truncated: ${where}`)

export class DumpParser {
  private readonly source: AsyncIterator<string[]>
  private pending: string[] = []
  private index = 0
  private lineNo = 0
  private readonly hash = createHash('sha256')

  constructor(lines: AsyncIterable<string[]>) {
    this.source = lines[Symbol.asyncIterator]()
  }

  async header(): Promise<DumpHeader> {
    const line = await this.next()
    const header = readHeader(line)
    this.hash.update(`${line}\n`)
    return header
  }

  /** Everything after the header, checked; `kindsOf` gives each table's column kinds. */
  async *parts(
    header: DumpHeader,
    kindsOf: (table: DumpTable) => ColumnKind[],
  ): AsyncGenerator<DumpPart> {
    let total = 0
    for (const table of header.tables) {
      const start = await this.next()
      if (start === undefined) throw truncated(`it ends before table ${table.name}`)
      if (asSection(this.json(start)) !== table.name)
        throw new TransferError(
          `dump line ${this.lineNo}: the start of table ${table.name} expected`,
        )
      this.hash.update(`${start}\n`)
      yield { kind: 'table', table }
      const kinds = kindsOf(table)
      let batch: RowBatch = { table, rows: [], lines: [], firstLine: this.lineNo + 1 }
      let chars = 0
      for (let done = 0; done < table.rows; done++) {
        const line = this.index < this.pending.length ? this.take() : await this.next()
        if (line === undefined)
          throw truncated(`table ${table.name} ends after ${done} of ${table.rows} rows`)
        const row = this.json(line)
        checkRow(row, table.name, table.columns, kinds, `dump line ${this.lineNo}`)
        this.hash.update(`${line}\n`)
        batch.rows.push(row)
        batch.lines.push(line)
        chars += line.length
        if (batch.rows.length >= BATCH_ROWS || chars >= BATCH_CHARS) {
          yield { kind: 'rows', ...batch }
          batch = { table, rows: [], lines: [], firstLine: this.lineNo + 1 }
          chars = 0
        }
      }
      if (batch.rows.length > 0) yield { kind: 'rows', ...batch }
      total += table.rows
    }
    await this.end(total)
  }

  /** Stops reading the input (after a failure). */
  async close(): Promise<void> {
    await this.source.return?.()
  }

  private async end(total: number): Promise<void> {
    const line = await this.next()
    if (line === undefined) throw truncated('it ends before its end line')
    const trailer = asTrailer(this.json(line))
    if (!trailer) throw new TransferError(`dump line ${this.lineNo}: the end line expected`)
    if (trailer.rows !== total || trailer.sha256 !== this.hash.digest('hex'))
      throw new TransferError('the dump is damaged: its checksum does not match its contents')
    if ((await this.next()) !== undefined)
      throw new TransferError(`dump line ${this.lineNo}: nothing may follow the end line`)
  }

  private json(line: string): unknown {
    try {
      return JSON.parse(line)
    } catch {
      throw new TransferError(`dump line ${this.lineNo} is not valid JSON (damaged or truncated)`)
    }
  }

  private take(): string {
    this.lineNo++
    return this.pending[this.index++]!
  }

  private async next(): Promise<string | undefined> {
    while (this.index >= this.pending.length) {
      const batch = await this.source.next()
      if (batch.done) return undefined
      this.pending = batch.value
      this.index = 0
    }
    return this.take()
  }
}
