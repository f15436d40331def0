/**
 * A dump's lines from a byte stream: plain or gzip-compressed (recognised by its first two
 * bytes, whatever the file is called), checked to be UTF-8, split at newlines and handed on in
 * batches as they arrive. No line may exceed MAX_LINE bytes, so a damaged input without
 * newlines cannot fill memory.
 */
import { Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { TransferError } from './dump-format.js'

export const MAX_LINE = 64 * 1024 * 1024

async function* uncompressed(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const iterator = input[Symbol.asyncIterator]()
  let head = Buffer.alloc(0)
  while (head.length < 2) {
    const next = await iterator.next()
    if (next.done) {
      if (head.length > 0) yield head
      return
    }
    head = Buffer.concat([head, next.value])
  }
  const first = head
  async function* all(): AsyncGenerator<Buffer> {
    yield first
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      yield next.value
  }
  if (first[0] !== 0x1f || first[1] !== 0x8b) {
    yield* all()
    return
  }
  const source = Readable.from(all())
  const gunzip = createGunzip()
  source.on('error', (error) => gunzip.destroy(error))
  source.pipe(gunzip)
  try {
    for await (const chunk of gunzip) yield chunk as Buffer
  } catch (error) {
    const code = String((error as NodeJS.ErrnoException).code ?? '')
    if (!code.startsWith('Z_')) throw error
    throw new TransferError(`the dump's gzip data is damaged (${(error as Error).message})`)
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true })

function decode(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes)
  } catch {
    throw new TransferError('the dump is not valid UTF-8 text')
  }
}

/** Batches of lines, without their newlines; a last line without a newline is kept. */
export async function* dumpLines(input: AsyncIterable<Buffer>): AsyncGenerator<string[]> {
  let rest: Buffer = Buffer.alloc(0)
  for await (const chunk of uncompressed(input)) {
    const data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk
    const last = data.lastIndexOf(0x0a)
    if (last === -1) {
      if (data.length > MAX_LINE)
        throw new TransferError(`the dump has a line longer than ${MAX_LINE} bytes`)
      rest = data
      continue
    }
    rest = data.subarray(last + 1)
    yield decode(data.subarray(0, last)).split('\n')
  }
  if (rest.length > 0) yield [decode(rest)]
}
