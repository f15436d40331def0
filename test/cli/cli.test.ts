import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/connect.js'
import { slink, slinkProcess } from '../support/cli.js'

let dir: string
let env: Record<string, string>

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slink-cli-'))
  env = { DATABASE_URL: `sqlite:${join(dir, 'cli.db')}` }
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function count(table: 'users' | 'api_keys' | 'domains'): Promise<number> {
  const db = openDatabase({ kind: 'sqlite', path: join(dir, 'cli.db') })
  try {
    const row = await db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    return Number(row.n)
  } finally {
    await db.close()
  }
}

async function liveKeys(): Promise<number> {
  const db = openDatabase({ kind: 'sqlite', path: join(dir, 'cli.db') })
  try {
    const rows = await db.kysely
      .selectFrom('api_keys')
      .select('id')
      .where('revoked_at', 'is', null)
      .execute()
    return rows.length
  } finally {
    await db.close()
  }
}

describe('the real slink bin', () => {
  it('exits 0 on success, 1 on a failure and 2 on a usage error, with one line on stderr', () => {
    expect(slinkProcess(['migrate'], env)).toEqual({
      status: 0,
      stdout:
        'applied 0001-initial, 0002-clicks, 0003-click-stats-by-month, 0004-dashboard-accounts, 0005-webhooks, 0006-imports, 0007-api-key-names, 0008-link-search, 0009-import-row-lookups, 0010-webhook-attempts, 0011-search-backlog, 0012-auth-generation, 0013-postgres-alias-suffixes, 0014-link-counts, 0015-postgres-link-counts, 0016-short-alias-suffixes, 0017-search-changed-text, 0019-short-key-prefixes, 0020-standard-search, 0023-normalised-urls, 0024-webhook-outbox-pending-age, 0025-click-stream, 0026-tags, 0027-utm-templates, 0028-click-sources, 0030-redirect-rules, 0031-social-previews, 0032-search-index-level\n',
      stderr: '',
    })
    expect(slinkProcess(['key', 'create', '--email', 'nobody@example.com'], env)).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: no user with email nobody@example.com\n',
    })
    expect(slinkProcess(['frobnicate'], env)).toEqual({
      status: 2,
      stdout: '',
      stderr: 'slink: unknown command "frobnicate"\n',
    })
  })
})

describe('slink migrate', () => {
  it('applies the schema once, then says it is up to date', async () => {
    expect(await slink(['migrate'], env)).toEqual({
      status: 0,
      stdout:
        'applied 0001-initial, 0002-clicks, 0003-click-stats-by-month, 0004-dashboard-accounts, 0005-webhooks, 0006-imports, 0007-api-key-names, 0008-link-search, 0009-import-row-lookups, 0010-webhook-attempts, 0011-search-backlog, 0012-auth-generation, 0013-postgres-alias-suffixes, 0014-link-counts, 0015-postgres-link-counts, 0016-short-alias-suffixes, 0017-search-changed-text, 0019-short-key-prefixes, 0020-standard-search, 0023-normalised-urls, 0024-webhook-outbox-pending-age, 0025-click-stream, 0026-tags, 0027-utm-templates, 0028-click-sources, 0030-redirect-rules, 0031-social-previews, 0032-search-index-level\n',
      stderr: '',
    })
    expect(await slink(['migrate'], env)).toEqual({
      status: 0,
      stdout: 'the schema is up to date\n',
      stderr: '',
    })
  })
})

describe('slink user create', () => {
  it('prints a new key of the slk_ form', async () => {
    const result = await slink(
      ['user', 'create', '--email', 'ann@example.com', '--name', 'Ann'],
      env,
    )
    expect(result.status).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/^slk_[A-Za-z0-9]{40}\n$/)
    expect(await count('users')).toBe(1)
  })

  it('uses the key given with --api-key', async () => {
    const result = await slink(
      ['user', 'create', '--email', 'ann@example.com', '--api-key', 'a-chosen-key-0123456789'],
      env,
    )
    expect(result).toEqual({ status: 0, stdout: 'a-chosen-key-0123456789\n', stderr: '' })
  })

  it.each([
    [['user', 'create'], 2, 'slink: --email is required\n'],
    [['user', 'create', '--email'], 2, 'slink: --email needs a value\n'],
    [['user', 'create', '--email', 'a@b.c', '--bogus', 'x'], 2, 'slink: unknown option --bogus\n'],
    [['user', 'create', '--email', 'a@b.c', 'extra'], 2, 'slink: unexpected argument "extra"\n'],
    [['user', 'create', '--email', 'not-an-email'], 1, 'slink: invalid email "not-an-email"\n'],
    [
      ['user', 'create', '--email', 'a@b.c', '--timezone', 'Mars/Olympus'],
      1,
      'slink: unknown time zone "Mars/Olympus"\n',
    ],
    [
      ['user', 'create', '--email', 'a@b.c', '--api-key', 'short'],
      1,
      'slink: an API key must be 16 to 128 printable characters without spaces\n',
    ],
    [['user', 'remove'], 2, 'slink: unknown command "user remove"\n'],
    [['frobnicate'], 2, 'slink: unknown command "frobnicate"\n'],
  ])('refuses %j with one line and exit %i, writing nothing', async (args, status, stderr) => {
    expect(await slink(args, env)).toEqual({ status, stdout: '', stderr })
    expect(await count('users').catch(() => 0)).toBe(0)
  })

  it('refuses a second user with the same email (any case)', async () => {
    await slink(['user', 'create', '--email', 'ann@example.com'], env)
    const result = await slink(['user', 'create', '--email', 'ANN@example.com'], env)
    expect(result).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: a user with email ANN@example.com already exists\n',
    })
    expect(await count('users')).toBe(1)
  })

  it('refuses a key another user already has', async () => {
    await slink(
      ['user', 'create', '--email', 'ann@example.com', '--api-key', 'a-chosen-key-0123456789'],
      env,
    )
    const result = await slink(
      ['user', 'create', '--email', 'bob@example.com', '--api-key', 'a-chosen-key-0123456789'],
      env,
    )
    expect(result).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: that API key is already in use\n',
    })
    expect(await count('users')).toBe(1)
  })
})

describe('slink key', () => {
  it('creates a second key for a user', async () => {
    await slink(['user', 'create', '--email', 'ann@example.com'], env)
    const result = await slink(['key', 'create', '--email', 'ann@example.com'], env)
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^slk_[A-Za-z0-9]{40}\n$/)
    expect(await liveKeys()).toBe(2)
  })

  it('names keys: --name, else "Command line" (as the key `user create` prints)', async () => {
    await slink(['user', 'create', '--email', 'ann@example.com'], env)
    expect(
      (await slink(['key', 'create', '--email', 'ann@example.com', '--name', 'CI'], env)).status,
    ).toBe(0)
    expect(
      await slink(['key', 'create', '--email', 'ann@example.com', '--name', ' '], env),
    ).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: a key name must be 1 to 64 characters\n',
    })
    const db = openDatabase({ kind: 'sqlite', path: join(dir, 'cli.db') })
    try {
      const names = await db.kysely.selectFrom('api_keys').select('name').orderBy('id').execute()
      expect(names.map((k) => k.name)).toEqual(['Command line', 'CI'])
    } finally {
      await db.close()
    }
  })

  it('refuses a key for an unknown user', async () => {
    expect(await slink(['key', 'create', '--email', 'nobody@example.com'], env)).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: no user with email nobody@example.com\n',
    })
  })

  it('revokes a key by its full value and by a unique prefix of 8+ characters', async () => {
    await slink(
      ['user', 'create', '--email', 'ann@example.com', '--api-key', 'first-key-aaaaaaaaaaaa'],
      env,
    )
    await slink(
      ['user', 'create', '--email', 'bob@example.com', '--api-key', 'second-key-bbbbbbbbbbb'],
      env,
    )
    expect(await slink(['key', 'revoke', 'first-key-aaaaaaaaaaaa'], env)).toEqual({
      status: 0,
      stdout: 'revoked\n',
      stderr: '',
    })
    expect(await slink(['key', 'revoke', 'second-k'], env)).toEqual({
      status: 0,
      stdout: 'revoked\n',
      stderr: '',
    })
    expect(await liveKeys()).toBe(0)
  })

  it('refuses a prefix shorter than 8 characters, an unknown one, and an ambiguous one', async () => {
    await slink(
      ['user', 'create', '--email', 'ann@example.com', '--api-key', 'shared-prefix-1-aaaaaa'],
      env,
    )
    await slink(
      ['user', 'create', '--email', 'bob@example.com', '--api-key', 'shared-prefix-2-bbbbbb'],
      env,
    )
    expect(await slink(['key', 'revoke', 'shared'], env)).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: a key prefix needs at least 8 characters\n',
    })
    expect(await slink(['key', 'revoke', 'zzzzzzzz'], env)).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: no live API key matches "zzzzzzzz"\n',
    })
    expect(await slink(['key', 'revoke', 'shared-prefix'], env)).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: "shared-prefix" matches 2 keys; give the whole key\n',
    })
    expect(await slink(['key', 'revoke'], env)).toEqual({
      status: 2,
      stdout: '',
      stderr: 'slink: expected 1 argument, got 0\n',
    })
    expect(await liveKeys()).toBe(2)
  })
})

describe('slink domain', () => {
  it('adds a global domain and a user domain, and lists them', async () => {
    await slink(['user', 'create', '--email', 'ann@example.com'], env)
    expect(await slink(['domain', 'add', 'go.example.com'], env)).toEqual({
      status: 0,
      stdout: '1\tgo.example.com\thttps://go.example.com\tglobal\n',
      stderr: '',
    })
    expect(
      await slink(['domain', 'add', 'http://Ann.Example.org', '--email', 'ann@example.com'], env),
    ).toEqual({
      status: 0,
      stdout: '2\tann.example.org\thttp://ann.example.org\tuser\n',
      stderr: '',
    })
    expect(await slink(['domain', 'list'], env)).toEqual({
      status: 0,
      stdout:
        'id\tname\turl\towner\n1\tgo.example.com\thttps://go.example.com\tglobal\n2\tann.example.org\thttp://ann.example.org\tuser 1\n',
      stderr: '',
    })
  })

  it('refuses a bad host, a taken host and an unknown owner, writing nothing', async () => {
    await slink(['domain', 'add', 'go.example.com'], env)
    expect(await slink(['domain', 'add', 'not a host'], env)).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: name: The name field must be a valid domain name.\n',
    })
    expect(await slink(['domain', 'add', 'GO.example.com'], env)).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: name: The name has already been taken.\n',
    })
    expect(
      await slink(['domain', 'add', 'x.example.com', '--email', 'nobody@example.com'], env),
    ).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: no user with email nobody@example.com\n',
    })
    expect(await slink(['domain', 'add'], env)).toEqual({
      status: 2,
      stdout: '',
      stderr: 'slink: expected 1 argument, got 0\n',
    })
    expect(await count('domains')).toBe(1)
  })

  it('refuses an address, a port, a single label, and the host of PUBLIC_URL', async () => {
    await slink(['user', 'create', '--email', 'ann@example.com'], env)
    const own = { ...env, PUBLIC_URL: 'https://s.example.net' }
    for (const name of ['127.0.0.1', '[::1]', 'localhost.', 'a..b', 'a-.com', 'go.example.com:0']) {
      for (const owner of [[], ['--email', 'ann@example.com']]) {
        expect(await slink(['domain', 'add', name, ...owner], own), name).toEqual({
          status: 1,
          stdout: '',
          stderr: 'slink: name: The name field must be a valid domain name.\n',
        })
      }
    }
    for (const owner of [[], ['--email', 'ann@example.com']]) {
      expect(await slink(['domain', 'add', 'S.example.net', ...owner], own)).toEqual({
        status: 1,
        stdout: '',
        stderr: "slink: name: The name field must not be one of the service's own domains.\n",
      })
    }
    expect(await count('domains')).toBe(0)
  })
})

describe('configuration errors', () => {
  it.each([
    [{ PORT: 'eighty' }, 'slink: PORT must be an integer from 0 to 65535, got "eighty"\n'],
    [
      { DATABASE_URL: 'mysql://x' },
      'slink: DATABASE_URL must start with sqlite: or postgres://, got "mysql://x"\n',
    ],
    [
      { REDIRECT_STATUS: '303' },
      'slink: REDIRECT_STATUS must be 301, 302, 307 or 308, got "303"\n',
    ],
    [
      { INITIAL_API_KEY: 'a-key-of-thirty-one-characters!' },
      'slink: INITIAL_API_KEY must be 32 to 128 printable characters without spaces\n',
    ],
    [
      { INITIAL_API_KEY: 'redirect-test-key-0123456789' },
      'slink: INITIAL_API_KEY must be 32 to 128 printable characters without spaces\n',
    ],
  ])('stops with one line naming the variable (%j)', async (extra, stderr) => {
    expect(await slink(['migrate'], { ...env, ...extra })).toEqual({
      status: 1,
      stdout: '',
      stderr,
    })
  })

  it('stops with one line when the database cannot be opened', async () => {
    writeFileSync(join(dir, 'a-file'), '')
    const path = join(dir, 'a-file', 'x.db')
    const result = await slink(['migrate'], { DATABASE_URL: `sqlite:${path}` })
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      `slink: cannot open SQLite database "${path}": EEXIST: file already exists, mkdir '${join(dir, 'a-file')}'\n`,
    )
  })
})
