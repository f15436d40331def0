import { createReadStream } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { SourceRow } from '../../src/imports/row.js'
import { FILE_SOURCES, type FileSource } from '../../src/imports/sources/index.js'

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url))

async function read(source: FileSource, file: string): Promise<Partial<SourceRow>[]> {
  const rows: Partial<SourceRow>[] = []
  for await (const row of FILE_SOURCES[source](createReadStream(fixture(file)))) {
    // Only what the source gave, so each expectation lists it all.
    const given = Object.fromEntries(
      Object.entries(row).filter(
        ([k, v]) =>
          v !== null &&
          !(k === 'clicks' && v === 0) &&
          !(k === 'disabled' && !v) &&
          !(k === 'tags' && Array.isArray(v) && v.length === 0),
      ),
    )
    rows.push(given)
  }
  return rows
}

describe('file sources read their documented export formats', () => {
  it('yourls: the yourls_url table as CSV', async () => {
    expect(await read('yourls', 'yourls.csv')).toEqual([
      {
        line: 1,
        key: 'gh',
        alias: 'gh',
        url: 'https://github.com/',
        title: 'GitHub',
        createdAt: Date.parse('2019-04-02T12:30:00Z'),
        clicks: 42,
      },
      {
        line: 2,
        key: 'docs',
        alias: 'docs',
        url: 'https://example.com/docs?a=1&b=2',
        title: 'Docs, with a comma',
        createdAt: Date.parse('2020-01-15T08:00:00Z'),
      },
      {
        line: 3,
        key: 'bad',
        alias: 'bad',
        url: 'ftp://example.com/file',
        title: 'FTP',
        createdAt: Date.parse('2020-01-15T08:00:00Z'),
        clicks: 3,
      },
    ])
  })

  it("shlink-csv: Shlink's CSV export, its default domain left empty", async () => {
    expect(await read('shlink-csv', 'shlink.csv')).toEqual([
      {
        line: 1,
        key: 'https://s.test/abc12',
        alias: 'abc12',
        domain: 's.test',
        url: 'https://example.com/one',
        title: 'One',
        createdAt: Date.parse('2023-05-01T08:20:30Z'),
        clicks: 17,
      },
      {
        line: 2,
        key: 'https://links.example/xyz',
        alias: 'xyz',
        domain: 'links.example',
        url: 'https://example.com/two',
        createdAt: Date.parse('2023-06-01T00:00:00Z'),
        clicks: 3,
      },
    ])
  })

  it('bitly: links on bit.ly land on the default domain with their back-halves', async () => {
    expect(await read('bitly', 'bitly.csv')).toEqual([
      {
        line: 1,
        key: 'bit.ly/3abcDEF',
        alias: '3abcDEF',
        url: 'https://example.com/bitly-one',
        title: 'Bitly one',
        createdAt: Date.parse('2022-11-05T14:00:00Z'),
        clicks: 120,
      },
      {
        line: 2,
        key: 'bit.ly/custom-back-half',
        alias: 'custom-back-half',
        url: 'https://example.com/bitly-two',
        createdAt: Date.parse('2022-11-06T09:30:00Z'),
        clicks: 5,
      },
    ])
  })

  it('dub: the links export, archived links imported disabled', async () => {
    expect(await read('dub', 'dub.csv')).toEqual([
      {
        line: 1,
        key: 'link_01HX',
        alias: 'launch',
        url: 'https://example.com/launch',
        title: 'Launch',
        createdAt: Date.parse('2024-02-10T09:00:00Z'),
        clicks: 88,
      },
      {
        line: 2,
        key: 'link_01HY',
        alias: 'old',
        url: 'https://example.com/old',
        title: 'Old',
        createdAt: Date.parse('2024-02-11T09:00:00Z'),
        clicks: 2,
        disabled: true,
      },
    ])
  })

  it('sink: the JSON export, Unix-second times, the comment as a title when there is none', async () => {
    expect(await read('sink', 'sink.json')).toEqual([
      {
        line: 1,
        key: 'k1',
        alias: 's1',
        url: 'https://example.com/sink-one',
        title: 'first',
        createdAt: 1717200000_000,
      },
      {
        line: 2,
        key: 'k2',
        alias: 's2',
        url: 'https://example.com/sink-two',
        title: 'Two',
        createdAt: 1717286400_000,
        endsAt: 4102444800_000,
      },
    ])
  })
})
