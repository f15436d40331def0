/**
 * What `slink import` refuses, run in-process: a target holding rows, inputs that are
 * not dumps, dumps of a newer format or schema, damaged, truncated or constraint-breaking dumps.
 * Each is one line on stderr and exit 1, with no row written and no new file left behind.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slink } from '../support/cli.js'
import {
  rowCount,
  signed,
  transferSource,
  type TransferSource,
} from '../support/transfer-fixture.js'

let src: TransferSource
let dump: string
const dumpLines = () => src.lines()
const target = (name: string) => src.target(name)

beforeAll(async () => {
  src = await transferSource()
  dump = src.dump
})
afterAll(() => src?.close())

describe('slink import refuses', () => {
  let n = 0
  /** Imports `input` into a new target file; returns the target's name and the error line. */
  const refused = async (input: string | Buffer, name = `target-${++n}.db`) => {
    const result = await slink(['import'], { DATABASE_URL: target(name) }, { input })
    expect(result.stdout).toBe('')
    expect(result.status).toBe(1)
    return { name, stderr: result.stderr }
  }

  it('a target that holds rows, writing nothing', async () => {
    expect(
      (
        await slink(['user', 'create', '--email', 'x@example.com'], {
          DATABASE_URL: target('full.db'),
        })
      ).status,
    ).toBe(0)
    expect((await refused(dump, 'full.db')).stderr).toBe(
      'slink: the target database is not empty (users: 1, api_keys: 1): import only into a new or empty database\n',
    )
    expect(await rowCount(target('full.db'))).toBe(2)
  })

  it.each([
    ['an empty input', () => '', 'the input is empty, not a slink dump'],
    [
      'something else',
      () => 'id,name\n1,Ann\n',
      'not a slink dump (its first line is not a slink-dump header)',
    ],
    [
      'a newer format version',
      () => dump.replace('"version":1', '"version":2'),
      'the dump has format version 2, newer than this slink reads (1): import it with a newer slink',
    ],
    [
      'a dump of a newer schema',
      () => dump.replace('"migrations":["', '"migrations":["9999-future","'),
      'the dump comes from a newer slink (schema migration 9999-future is unknown here): import it with that version or later',
    ],
  ])('%s, before touching the target', async (_, input, message) => {
    const { name, stderr } = await refused(input())
    expect(stderr).toBe(`slink: ${message}\n`)
    expect(existsSync(join(src.dir, name))).toBe(false)
  })

  it.each([
    [
      'cut in the middle of a line',
      () => dump.slice(0, dump.indexOf('\n', dump.length * 0.6) + 5),
      /dump line \d+ is not valid JSON \(damaged or truncated\)/,
      false,
    ],
    [
      'without its end line',
      () => dumpLines().slice(0, -1).join('\n'),
      /the dump is truncated: it ends before its end line/,
      true,
    ],
    [
      'cut after a table’s first row',
      () =>
        dumpLines()
          .slice(0, dumpLines().indexOf('{"table":"clicks"}') + 2)
          .join('\n'),
      /the dump is truncated: table clicks ends after 1 of \d+ rows/,
      false,
    ],
    [
      'altered',
      () => dump.replace('"Alice"', '"Alicf"'),
      /the dump is damaged: its checksum does not match its contents/,
      true,
    ],
    [
      'with a row that breaks a constraint',
      () => signed(dumpLines().map((l) => l.replace('"b@example.com"', '"a@example.com"'))),
      /table users, dump line 4: UNIQUE constraint failed: users\.email/,
      true,
    ],
    [
      'with a value of the wrong kind',
      () => signed(dumpLines().map((l) => l.replace(/^\[1,"Alice"/, '["1","Alice"'))),
      /dump line 3: users\.id: an integer expected, got text/,
      false,
    ],
    [
      'with data after its end line',
      () => `${dump}{"table":"users"}\n`,
      /dump line \d+: nothing may follow the end line/,
      false,
    ],
  ])('a dump %s, leaving no row behind', async (_, input, message, late) => {
    if (late) {
      // Found after rows went in: an existing empty database keeps its schema and stays empty.
      const empty = `empty-${++n}.db`
      expect((await slink(['migrate'], { DATABASE_URL: target(empty) })).status).toBe(0)
      const { stderr } = await refused(input(), empty)
      expect(stderr).toMatch(new RegExp(`^slink: ${message.source}; nothing was imported\\n$`))
      expect(await rowCount(target(empty))).toBe(0)
      return
    }
    const { name, stderr } = await refused(input())
    expect(stderr).toMatch(new RegExp(`^slink: ${message.source}; nothing was imported\\n$`))
    expect(existsSync(join(src.dir, name))).toBe(false)
  })
})
