import { createReadStream } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { SourceRow } from '../../src/imports/row.js'
import { given } from '../support/source-rows.js'
import { FILE_SOURCES } from '../../src/imports/sources/index.js'
import { MAX_TUPLE } from '../../src/imports/sources/sql-dump.js'

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url))

async function read(input: AsyncIterable<Buffer | Uint8Array>): Promise<Partial<SourceRow>[]> {
  const rows: Partial<SourceRow>[] = []
  for await (const row of FILE_SOURCES.yourls(input)) {
    // Only what the source gave, so each expectation lists it all.
    rows.push(given(row))
  }
  return rows
}

async function* chunks(text: string | Buffer, size = 5): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text)
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
}

const ROWS_OF_MYSQLDUMP = [
  {
    line: 1,
    key: 'docs',
    alias: 'docs',
    url: 'https://example.com/docs?a=1&b=2',
    title: "Docs, with a comma; and 'quotes'",
    createdAt: Date.parse('2020-01-15T08:00:00Z'),
    // One in the URL table, two in the log: the log's days count.
    clicks: 2,
    history: [
      { day: '2024-01-15', clicks: 1 },
      { day: '2024-01-16', clicks: 1 },
    ],
  },
  {
    line: 2,
    key: 'gh',
    alias: 'gh',
    url: 'https://github.com/',
    title: "GitHub \\ Let's build from here 🚀",
    createdAt: Date.parse('2019-04-02T12:30:00Z'),
    clicks: 42,
    history: [
      { day: '2023-03-01', clicks: 1 },
      { day: '2023-03-02', clicks: 2 },
    ],
  },
  {
    line: 3,
    key: 'nul',
    alias: 'nul',
    url: 'https://example.com/no-title',
    createdAt: Date.parse('2021-07-01T00:00:00Z'),
  },
]

describe('yourls: the database as a .sql dump', () => {
  it('reads a mysqldump of the whole database: the URL table, its click log by day, nothing else', async () => {
    // Tiny chunks: every token is cut somewhere.
    expect(
      await read(createReadStream(fixture('yourls-mysqldump.sql'), { highWaterMark: 7 })),
    ).toEqual(ROWS_OF_MYSQLDUMP)
    expect(await read(createReadStream(fixture('yourls-mysqldump.sql')))).toEqual(ROWS_OF_MYSQLDUMP)
  })

  it('reads a Navicat dump: another prefix, one row per INSERT, hex strings in each column’s character set', async () => {
    expect(
      await read(createReadStream(fixture('yourls-navicat.sql'), { highWaterMark: 3 })),
    ).toEqual([
      {
        line: 1,
        key: 'ozh',
        alias: 'ozh',
        url: 'http://ozh.org/',
        title: 'Café noir',
        createdAt: Date.parse('2014-03-08T00:35:07Z'),
        clicks: 7,
      },
      {
        line: 2,
        key: 'caf',
        alias: 'caf',
        url: 'https://example.com/café',
        title: 'Café au lait',
        createdAt: Date.parse('2014-03-09T10:00:00Z'),
      },
    ])
  })

  it("reads phpMyAdmin's column lists in any order, ANSI double quotes, introducers and X'…'", async () => {
    const dump = [
      '-- phpMyAdmin SQL Dump',
      '-- version 5.2.1',
      'SET SQL_MODE = "NO_AUTO_VALUE_ON_ZERO";',
      'START TRANSACTION;',
      'CREATE TABLE `wp_posts` (`ID` bigint(20) unsigned NOT NULL, `post_title` text NOT NULL);',
      "INSERT INTO `wp_posts` (`ID`, `post_title`) VALUES (1, 'keyword'), (2, 'url');",
      'INSERT INTO `yourls_url` (`clicks`, `keyword`, `url`, `title`, `timestamp`, `ip`) VALUES',
      "(3, 'pma', 'https://example.com/pma', 'It''s \"quoted\"', '2022-05-05 05:05:05', '::1'),",
      "(-1, 'neg', _utf8mb4'https://example.com/neg', _binary 0x4865782074C3AD74756C6F, '2022-05-05 05:05:05', '::1');",
      'INSERT IGNORE INTO "yourls_url" ("keyword", "url", "title") VALUES (\'ansi\', X\'68747470733A2F2F6578616D706C652E636F6D2F616E7369\', NULL)',
      '  ON DUPLICATE KEY UPDATE "clicks" = "clicks" + 1;',
      "REPLACE INTO yourls.yourls_url VALUES ('rep', 'https://example.com/rep', '', '2022-05-05 05:05:05', '', 0);",
      'COMMIT;',
    ].join('\n')
    expect(await read(chunks(dump))).toEqual([
      {
        line: 1,
        key: 'pma',
        alias: 'pma',
        url: 'https://example.com/pma',
        title: 'It\'s "quoted"',
        createdAt: Date.parse('2022-05-05T05:05:05Z'),
        clicks: 3,
      },
      {
        line: 2,
        key: 'neg',
        alias: 'neg',
        url: 'https://example.com/neg',
        title: 'Hex título',
        createdAt: Date.parse('2022-05-05T05:05:05Z'),
      },
      { line: 3, key: 'ansi', alias: 'ansi', url: 'https://example.com/ansi' },
      {
        line: 4,
        key: 'rep',
        alias: 'rep',
        url: 'https://example.com/rep',
        createdAt: Date.parse('2022-05-05T05:05:05Z'),
      },
    ])
  })

  it('reports a row over the size bound and a dump cut inside a row in their places, and reads on', async () => {
    const huge = 'x'.repeat(MAX_TUPLE + 10)
    const dump = [
      '/*!40101 SET NAMES utf8mb4 */;',
      `INSERT INTO \`yourls_url\` VALUES ('big','https://example.com/big','${huge}','2020-01-01 00:00:00','',1),('ok','https://example.com/ok','OK','2020-01-01 00:00:00','',2);`,
      "INSERT INTO `yourls_url` VALUES ('cut','https://example.com/cut",
    ].join('\n')
    expect(await read(chunks(dump, 64 * 1024))).toEqual([
      { line: 1, problem: `The row is longer than ${MAX_TUPLE} characters.` },
      {
        line: 2,
        key: 'ok',
        alias: 'ok',
        url: 'https://example.com/ok',
        title: 'OK',
        createdAt: Date.parse('2020-01-01T00:00:00Z'),
        clicks: 2,
      },
      { line: 3, problem: 'The dump ends inside this row.' },
    ])
  })

  it('still reads the CSV export when the file is not a dump', async () => {
    const csv =
      'keyword,url,title,timestamp,ip,clicks\ninsert,https://example.com/,T,2020-01-01 00:00:00,,1\n'
    expect(await read(chunks(csv))).toEqual([
      {
        line: 1,
        key: 'insert',
        alias: 'insert',
        url: 'https://example.com/',
        title: 'T',
        createdAt: Date.parse('2020-01-01T00:00:00Z'),
        clicks: 1,
      },
    ])
  })
})
