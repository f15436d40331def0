/** Every source by the name `--from` and the API's `source` take. */
import type { SourceRow } from '../row.js'
import { readCsv } from './csv.js'
import { readBitly, readDub, readShlinkCsv, readSink, readYourls } from './files.js'

type Bytes = AsyncIterable<Buffer | Uint8Array>

export const FILE_SOURCES = {
  csv: readCsv,
  yourls: readYourls,
  'shlink-csv': readShlinkCsv,
  bitly: readBitly,
  dub: readDub,
  sink: readSink,
} satisfies Record<string, (input: Bytes) => AsyncIterable<SourceRow>>

export type FileSource = keyof typeof FILE_SOURCES

export const FILE_SOURCE_NAMES = Object.keys(FILE_SOURCES) as FileSource[]

export function isFileSource(name: string): name is FileSource {
  return Object.hasOwn(FILE_SOURCES, name)
}

export { API_SOURCES, isApiSource, type ApiSource, type JsonFetch } from './apis.js'

/** Every source name, files first. */
export const SOURCE_NAMES = [...FILE_SOURCE_NAMES, 'phpshort', 'shlink', 'kutt'] as const
