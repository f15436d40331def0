import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/connect.js'
import { loadConfig } from '../../src/config.js'
import { Writable } from 'node:stream'
import { run } from '../../src/cli/commands.js'
import { slink } from '../support/cli.js'
import { kuttApi, phpShortApi, shlinkApi, sourceApi } from '../support/source-apis.js'

let dir: string
let env: Record<string, string>

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slink-import-cli-'))
  env = { DATABASE_URL: `sqlite:${join(dir, 'cli.db')}`, PUBLIC_URL: 'http://short.test' }
  const made = await slink(
    ['user', 'create', '--email', 'a@example.com', '--api-key', 'key-of-user-a-0123456789'],
    env,
  )
  expect(made.status).toBe(0)
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

async function links() {
  const db = openDatabase(loadConfig(env).database)
  try {
    return await db.kysely
      .selectFrom('links')
      .leftJoin('spaces', 'spaces.id', 'links.space_id')
      .innerJoin('domains', 'domains.id', 'links.domain_id')
      .select([
        'links.alias',
        'links.url',
        'links.title',
        'links.clicks',
        'links.disabled',
        'links.expiration_clicks',
        'links.ends_at',
        'links.created_at',
        'spaces.name as space',
        'domains.name as domain',
      ])
      .orderBy('links.id')
      .execute()
  } finally {
    await db.close()
  }
}

const CSV = 'url,alias,title,clicks\nhttps://example.com/a,first,First,3\nnot a url,second,,\n'

describe('slink import-links', () => {
  it('a dry run lists each row that would not be created and writes nothing; the real run creates; a second run nothing', async () => {
    const file = join(dir, 'links.csv')
    writeFileSync(file, CSV)
    const dry = await slink(
      ['import-links', '--from', 'csv', '--email', 'a@example.com', '--file', file, '--dry-run'],
      env,
    )
    expect(dry.stdout).toBe(
      '2\tinvalid\tsecond\tThe url field must be a valid http or https URL.\n',
    )
    expect(dry.stderr).toMatch(
      /^dry run of 2 rows from csv in \d+\.\d s \(import 1\): 1 created, 0 renamed, 0 skipped, 0 already imported, 1 invalid, 0 unknown domain; nothing was written\n$/,
    )
    expect(dry.status).toBe(0)
    expect(await links()).toEqual([])

    const real = await slink(
      ['import-links', '--from', 'csv', '--email', 'a@example.com', '--file', file],
      env,
    )
    expect(real.stderr).toMatch(
      /^imported 2 rows from csv in \d+\.\d s \(import 2\): 1 created, 0 renamed, 0 skipped, 0 already imported, 1 invalid, 0 unknown domain\n$/,
    )
    expect(real.status).toBe(0)
    expect((await links()).map((l) => [l.alias, l.url, l.title, l.clicks])).toEqual([
      ['first', 'https://example.com/a', 'First', 3],
    ])

    const again = await slink(
      ['import-links', '--from', 'csv', '--email', 'a@example.com', '--file', file],
      env,
    )
    expect(again.stdout).toBe(
      '1\tduplicate\tfirst\tImported before.\n2\tinvalid\tsecond\tThe url field must be a valid http or https URL.\n',
    )
    expect(await links()).toHaveLength(1)
  })

  it('draws a progress line on a terminal, and clears it before the summary', async () => {
    const file = join(dir, 'links.csv')
    writeFileSync(file, CSV)
    let err = ''
    const sink = (keep: boolean) =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          if (keep) err += chunk.toString()
          done()
        },
      })
    const status = await run(
      ['import-links', '--from', 'csv', '--email', 'a@example.com', '--file', file],
      {
        env: { LOG_LEVEL: 'silent', ...env },
        stdin: (async function* () {})(),
        stdout: sink(false),
        stderr: Object.assign(sink(true), { columns: 80 }),
        isTTY: { stdin: false, stdout: false, stderr: true },
        stdoutPiped: () => false,
      },
    )
    expect(status).toBe(0)
    // The terminal's escape character, written out so the pattern below stays readable.
    expect(err.replaceAll('\u001b', '<ESC>')).toMatch(
      /^\r<ESC>\[2Kimporting 100% {2}2 rows {2}[\d,]+ rows\/s\r<ESC>\[2Kimported 2 rows from csv in \d+\.\d s \(import 1\): 1 created/,
    )
  })

  it.each([
    [
      ['import-links', '--email', 'a@example.com', '--file', 'x'],
      '--from is required: csv, yourls, shlink-csv, bitly, dub, sink, phpshort, shlink, kutt',
    ],
    [
      ['import-links', '--from', 'nope', '--email', 'a@example.com', '--file', 'x'],
      'unknown source "nope": csv, yourls, shlink-csv, bitly, dub, sink, phpshort, shlink, kutt',
    ],
    [
      [
        'import-links',
        '--from',
        'csv',
        '--email',
        'a@example.com',
        '--url',
        'http://x',
        '--key',
        'k',
      ],
      '--from csv reads a file: give --file',
    ],
    [
      ['import-links', '--from', 'kutt', '--email', 'a@example.com', '--file', 'x'],
      '--from kutt reads an API: give --url and --key',
    ],
    [
      [
        'import-links',
        '--from',
        'csv',
        '--email',
        'a@example.com',
        '--file',
        'x',
        '--on-conflict',
        'merge',
      ],
      '--on-conflict must be skip or rename',
    ],
  ])('refuses %j as a usage error', async (args, message) => {
    const result = await slink(args, env)
    expect(result).toEqual({ status: 2, stdout: '', stderr: `slink: ${message}\n` })
  })

  it('an unknown owner or a missing file is one line and exit 1', async () => {
    const file = join(dir, 'links.csv')
    writeFileSync(file, CSV)
    expect(
      await slink(
        ['import-links', '--from', 'csv', '--email', 'x@example.com', '--file', file],
        env,
      ),
    ).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: no user with email x@example.com\n',
    })
    expect(
      await slink(
        [
          'import-links',
          '--from',
          'csv',
          '--email',
          'a@example.com',
          '--file',
          join(dir, 'none.csv'),
        ],
        env,
      ),
    ).toEqual({ status: 1, stdout: '', stderr: `slink: cannot read ${join(dir, 'none.csv')}\n` })
  })

  it('phpshort: reads every page of the v1 API with the Bearer key: spaces, clicks, limits, disabled', async () => {
    const api = await sourceApi(phpShortApi('php-key'))
    try {
      const result = await slink(
        [
          'import-links',
          '--from',
          'phpshort',
          '--email',
          'a@example.com',
          '--url',
          api.url,
          '--key',
          'php-key',
        ],
        env,
      )
      expect(result.stdout).toBe(
        '1\tunknown_domain\tpromo\told.example is not a domain of yours.\n',
      )
      expect(result.status).toBe(0)
      expect(api.requests).toEqual([
        'GET /api/v1/links?page=1&per_page=100',
        'GET /api/v1/links?page=2&per_page=100',
      ])
      expect(await links()).toEqual([
        {
          alias: 'guide',
          url: 'https://example.com/docs',
          title: null,
          clicks: 0,
          disabled: 1,
          expiration_clicks: null,
          ends_at: null,
          created_at: Date.parse('2021-06-02T12:00:00Z'),
          space: null,
          domain: 'short.test',
        },
      ])
      // Once the domain exists here, the rest comes in, with its space.
      expect(
        (await slink(['domain', 'add', 'old.example', '--email', 'a@example.com'], env)).status,
      ).toBe(0)
      const again = await slink(
        [
          'import-links',
          '--from',
          'phpshort',
          '--email',
          'a@example.com',
          '--url',
          api.url,
          '--key',
          'php-key',
        ],
        env,
      )
      expect(again.stdout).toBe('2\tduplicate\tguide\tImported before.\n')
      expect((await links())[1]).toEqual({
        alias: 'promo',
        url: 'https://example.com/promo',
        title: 'Promo',
        clicks: 31,
        disabled: 0,
        expiration_clicks: 100,
        ends_at: Date.parse('2030-01-01T00:00:00Z'),
        created_at: Date.parse('2021-06-01T12:00:00Z'),
        space: 'Marketing',
        domain: 'old.example',
      })
    } finally {
      await api.close()
    }
  })

  it('phpshort: a wrong key stops the import with the answer, nothing written', async () => {
    const api = await sourceApi(phpShortApi('php-key'))
    try {
      const result = await slink(
        [
          'import-links',
          '--from',
          'phpshort',
          '--email',
          'a@example.com',
          '--url',
          api.url,
          '--key',
          'wrong',
        ],
        env,
      )
      expect(result).toEqual({
        status: 1,
        stdout: '',
        stderr: `slink: the import stopped after 0 rows: ${api.url}/api/v1/links answered 401; 0 links were written, run it again to import the rest\n`,
      })
      expect(await links()).toEqual([])
    } finally {
      await api.close()
    }
  })

  it('shlink: REST v3 with X-Api-Key; its default domain becomes ours, visit totals and max visits kept', async () => {
    const api = await sourceApi(shlinkApi('shlink-key'))
    try {
      const result = await slink(
        [
          'import-links',
          '--from',
          'shlink',
          '--email',
          'a@example.com',
          '--url',
          api.url,
          '--key',
          'shlink-key',
        ],
        env,
      )
      expect(result.stdout).toBe(
        '2\tunknown_domain\tcustom\tother.example is not a domain of yours.\n',
      )
      expect(api.requests).toEqual([
        'GET /rest/v3/short-urls?page=1&itemsPerPage=100',
        'GET /rest/v3/short-urls?page=2&itemsPerPage=100',
      ])
      expect(await links()).toEqual([
        {
          alias: 'abc123',
          url: 'https://example.com/shlink-one',
          title: 'Shlink one',
          clicks: 40,
          disabled: 0,
          expiration_clicks: 50,
          ends_at: null,
          created_at: Date.parse('2022-02-02T09:00:00Z'),
          space: null,
          domain: 'short.test',
        },
      ])
    } finally {
      await api.close()
    }
  })

  it('kutt: API v2 with X-API-KEY, paged by skip and limit', async () => {
    const api = await sourceApi(kuttApi('kutt-key'))
    try {
      const result = await slink(
        [
          'import-links',
          '--from',
          'kutt',
          '--email',
          'a@example.com',
          '--url',
          api.url,
          '--key',
          'kutt-key',
          '--on-conflict',
          'rename',
        ],
        env,
      )
      expect(result.stdout).toBe('')
      expect(result.status).toBe(0)
      expect(api.requests).toEqual(['GET /api/v2/links?skip=0&limit=50'])
      expect(await links()).toEqual([
        {
          alias: 'kutt1',
          url: 'https://example.com/kutt-one',
          title: 'Kutt one',
          clicks: 9,
          disabled: 0,
          expiration_clicks: null,
          ends_at: null,
          created_at: Date.parse('2023-03-03T03:03:03Z'),
          space: null,
          domain: 'short.test',
        },
      ])
    } finally {
      await api.close()
    }
  })
})
