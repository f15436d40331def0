/**
 * Where dumps go and come from: standard output or a file; standard input or a file. A file
 * is written under a temporary name beside it, created with mode 0600 (a dump holds password
 * hashes, key hashes and the cookie secret), flushed to disk and renamed into place only when
 * complete, so FILE is never a partial dump. A name ending in `.gz` is gzip-compressed;
 * reading recognises gzip by its content.
 */
import { createReadStream, createWriteStream, openSync, renameSync, unlinkSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Writable } from 'node:stream'
import { finished, pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import { TransferError } from './dump-format.js'

export interface DumpOutput {
  stream: Writable
  /** Another program reads the dump as it comes (a pipe or a socket). */
  piped: boolean
  /** Completes the dump: flushed, and in place under its name. */
  finish(): Promise<void>
  /** Drops what was written; safe at any time, also from a signal handler. */
  discard(): void
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return 'no such file or directory'
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'EISDIR') return 'it is a directory'
  return (error as Error).message
}

/** The dump on standard output (`stream`); `piped` when another program reads it as it comes. */
export function streamOutput(stream: Writable, piped: boolean): DumpOutput {
  return {
    stream,
    piped,
    finish: () =>
      new Promise((resolve, reject) =>
        stream.write('', (error) => (error ? reject(error) : resolve())),
      ),
    discard: () => {},
  }
}

export function fileOutput(path: string): DumpOutput {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.partial`)
  let fd: number
  try {
    fd = openSync(temporary, 'wx', 0o600)
  } catch (error) {
    throw new TransferError(`cannot write ${path}: ${reason(error)}`)
  }
  const file = createWriteStream(temporary, { fd, flush: true })
  const gzip = path.endsWith('.gz') ? createGzip() : null
  const written = gzip ? pipeline(gzip, file) : finished(file)
  written.catch(() => {})
  const stream = gzip ?? file
  return {
    stream,
    piped: false,
    async finish() {
      stream.end()
      try {
        await written
        renameSync(temporary, path)
      } catch (error) {
        throw new TransferError(`cannot write ${path}: ${reason(error)}`)
      }
    },
    discard() {
      stream.destroy()
      try {
        unlinkSync(temporary)
      } catch {
        // already gone
      }
    },
  }
}

async function* readFile(path: string, fd: number): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of createReadStream(path, { fd, highWaterMark: 1 << 20 }))
      yield chunk as Buffer
  } catch (error) {
    throw new TransferError(`cannot read ${path}: ${reason(error)}`)
  }
}

/** The dump's bytes: from the file at `path`. */
export function openInput(path: string): AsyncIterable<Buffer> {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch (error) {
    throw new TransferError(`cannot read ${path}: ${reason(error)}`)
  }
  return readFile(path, fd)
}
