/**
 * Writes a dump's lines to a stream: gathered into chunks of about 256 KiB, hashed (SHA-256 of
 * every byte before the end line) and written with backpressure, so a slow reader (a pipe into
 * `slink import`) slows the export instead of filling memory.
 */
import { createHash } from 'node:crypto'
import type { Writable } from 'node:stream'
import { TransferError, type DumpTrailer } from './dump-format.js'

const CHUNK = 256 * 1024

function writeFailure(error: Error): TransferError {
  const code = (error as NodeJS.ErrnoException).code
  return new TransferError(
    code === 'EPIPE'
      ? 'the reader of the dump went away (broken pipe)'
      : `cannot write the dump: ${error.message}`,
  )
}

/** Resolves on 'drain'; rejects when the stream fails or closes first. */
function drained(sink: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      sink.off('drain', onDrain).off('error', onError).off('close', onClose)
      if (error) reject(error)
      else resolve()
    }
    const onDrain = () => settle()
    const onError = (error: Error) => settle(error)
    const onClose = () => settle(new Error('the output was closed'))
    sink.on('drain', onDrain).on('error', onError).on('close', onClose)
  })
}

export class DumpWriter {
  private parts: string[] = []
  private size = 0
  private readonly hash = createHash('sha256')
  private failure: Error | null = null

  constructor(private readonly sink: Writable) {
    sink.on('error', (error: Error) => {
      this.failure ??= error
    })
  }

  /** Adds one line (without its newline). */
  async line(text: string): Promise<void> {
    this.parts.push(text, '\n')
    this.size += text.length + 1
    if (this.size >= CHUNK) await this.flush()
  }

  /** Writes the end line after everything else; the caller closes the stream. */
  async end(rows: number): Promise<void> {
    await this.flush()
    const trailer: DumpTrailer = { end: true, rows, sha256: this.hash.digest('hex') }
    await this.write(`${JSON.stringify(trailer)}\n`)
  }

  private async flush(): Promise<void> {
    if (this.parts.length === 0) return
    const chunk = this.parts.join('')
    this.parts = []
    this.size = 0
    this.hash.update(chunk)
    await this.write(chunk)
  }

  private async write(chunk: string): Promise<void> {
    if (this.failure) throw writeFailure(this.failure)
    try {
      if (!this.sink.write(chunk)) await drained(this.sink)
    } catch (error) {
      throw writeFailure(error as Error)
    }
    if (this.failure) throw writeFailure(this.failure)
  }
}
