/**
 * The objects of a JSON export, read with stream-json as the bytes arrive: the document's
 * top-level array, or the array under one top-level field (`{"links":[…]}`). Only the list is
 * assembled, one item at a time; anything else in the document is skipped token by token.
 *
 * stream-json says it is not built for hostile input, so this reader bounds what it hands on:
 * nesting deeper than MAX_DEPTH stops the import, and an item of more than MAX_ITEM_TOKENS
 * tokens or MAX_ITEM_CHARS characters of keys and values is dropped as it arrives and comes
 * out as an item with a problem, in its place (the file itself is bounded by the upload).
 */
import { Readable } from 'node:stream'
import chain from 'stream-chain'
import { many, none } from 'stream-chain/defs.js'
import { parser } from 'stream-json'
import { pick } from 'stream-json/filters/pick.js'
import { streamArray } from 'stream-json/streamers/stream-array.js'

type Bytes = AsyncIterable<Buffer | Uint8Array>
export type JsonItem = Record<string, unknown>

/** One item of the list: an object (any other value is an empty one), or why it was dropped. */
export type JsonEntry = { item: JsonItem; problem: null } | { item: null; problem: string }

export const MAX_DEPTH = 32
export const MAX_ITEM_TOKENS = 10_000
export const MAX_ITEM_CHARS = 1024 * 1024

const TOO_LARGE = '\u0001too large'
const TOO_DEEP = 'The JSON is nested too deeply.'

type Token = parser.Token

/**
 * Passes the picked list's tokens on an item at a time: held until the item ends, then passed
 * on whole, or replaced by one TOO_LARGE string when it is over the bounds.
 */
function boundedItems(field: string, seen: { list: boolean }) {
  let depth = 0
  let held: Token[] = []
  let chars = 0
  let dropping = false
  return (token: Token) => {
    const before = depth
    const opens = token.name === 'startObject' || token.name === 'startArray'
    const closes = token.name === 'endObject' || token.name === 'endArray'
    if (opens && ++depth > MAX_DEPTH) throw new Error(TOO_DEEP)
    if (closes) depth--
    if (before === 0) {
      if (token.name !== 'startArray') throw new Error(noList(field))
      seen.list = true
      return token
    }
    if (before === 1) {
      // The list's closing bracket, or an item of one token, passes at once.
      if (!opens) return token
      held = [token]
      chars = 0
      dropping = false
      return none
    }
    if (!dropping) {
      held.push(token)
      if ('value' in token && typeof token.value === 'string') chars += token.value.length
      if (held.length > MAX_ITEM_TOKENS || chars > MAX_ITEM_CHARS) {
        dropping = true
        held = []
      }
    }
    if (depth > 1) return none
    const item: Token[] = dropping ? [{ name: 'stringValue', value: TOO_LARGE }] : held
    held = []
    return many(item)
  }
}

const noList = (field: string) => `The JSON has no "${field}" list.`

/** The list's entries, in order. Throws on broken JSON or when there is no such list. */
export async function* jsonItems(input: Bytes, field: string): AsyncGenerator<JsonEntry> {
  const iterator = input[Symbol.asyncIterator]()
  const first = await iterator.next()
  const head = first.done ? Buffer.alloc(0) : Buffer.from(first.value)
  const start = /^(?:\uFEFF)?\s*([[{])/.exec(head.subarray(0, 64).toString('utf8'))?.[1]
  if (start === undefined) {
    await iterator.return?.()
    throw new Error('The file is not valid JSON.')
  }
  async function* bytes(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        yield Buffer.from(next.value)
    } finally {
      // Stopped early (a cap, an error): the input (a file's stream) is closed too.
      await iterator.return?.()
    }
  }
  const seen = { list: false }
  const source = Readable.from(bytes())
  const items = chain([
    parser({ streamValues: false }),
    start === '{' ? pick({ filter: field, once: true, maxDepth: MAX_DEPTH }) : null,
    boundedItems(field, seen),
    streamArray(),
  ])
  source.on('error', (error) => items.destroy(error))
  source.pipe(items)
  try {
    for await (const { value } of items as AsyncIterable<{ value: unknown }>) {
      if (value === TOO_LARGE)
        yield {
          item: null,
          problem: `The item is larger than ${MAX_ITEM_TOKENS} values or ${MAX_ITEM_CHARS} characters.`,
        }
      else
        yield {
          item:
            typeof value === 'object' && value !== null && !Array.isArray(value)
              ? (value as JsonItem)
              : {},
          problem: null,
        }
    }
  } catch (error) {
    // The filter's own depth guard throws a RangeError.
    if (error instanceof RangeError) throw new Error(TOO_DEEP)
    if (error instanceof Error && [TOO_DEEP, noList(field)].includes(error.message)) throw error
    throw new Error('The file is not valid JSON.')
  } finally {
    source.destroy()
    items.destroy()
  }
  if (!seen.list) throw new Error(noList(field))
}
