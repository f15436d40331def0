/**
 * The `slink` command: serve the service, run migrations, and manage what the API does not
 * (users, API keys, global domains). Errors are one line on stderr and a non-zero exit status
 * (2 for a usage error). Everything a command reads or writes goes through its `CliIo`.
 */
import cluster from 'node:cluster'
import { availableParallelism } from 'node:os'
import { CONFIG_VARIABLES, ConfigError, loadConfig, type DatabaseConfig } from '../config.js'
import { tuneHeapForServing } from '../composition/heap-tuning.js'
import { DatabaseUnavailableError, openDatabase, type Db } from '../db/connect.js'
import { storedPublicUrl } from '../db/settings.js'
import { migrate } from '../db/migrate.js'
import { createServices, type Services } from '../composition/services.js'
import { ValidationError } from '../shared/errors.js'
import { connectRedis } from '../cluster/redis.js'
import { IDLE_TIMEOUT_MS } from '../sessions/service.js'
import { RedisSessionStore } from '../sessions/redis-store.js'
import { passwordLink, passwordProblem } from '../users/accounts.js'
import { UserInputError } from '../users/service.js'
import { parseCommand, UsageError } from './args.js'
import { lines, type CliIo } from './io.js'
import { firstLine, readSecret, SecretInputError } from './secret-input.js'

const USAGE = `usage: slink <command>

  serve [--workers N]                      run the service with N processes (default: one on
                                           SQLite, one per core on PostgreSQL; also: npm start)
  migrate                                  create or update the database schema
  backup --to FILE                         copy the SQLite database to FILE while it serves
                                           (PostgreSQL: use pg_dump, see docs/deploy.md)
  user create --email E [--name N] [--timezone TZ] [--api-key K]
                                           create a user and print its API key
  user password --email E                  set a user's dashboard password, read from standard
                                           input (not echoed on a terminal); ends their sessions
  user reset-link --email E                print a one-time link (valid 24 hours) to set a password,
                                           on the PUBLIC_URL the service last started with
  key create --email E [--name N]          print a new API key for a user (named N, default
                                           "Command line")
  key revoke KEY_OR_PREFIX                 revoke a key (or its unique prefix, 8+ characters)
  domain add HOST [--email E]              add a domain (no email: global, usable by everyone)
  domain list                              list every domain
  export [--to FILE] [--from-database URL] [--progress | --no-progress]
                                           write every table to a dump (stdout without --to)
  import [--from FILE] [--to-database URL] [--progress | --no-progress]
                                           load a dump into an empty database (stdin without --from)
  import-links --from SOURCE --email E (--file PATH | --url BASE_URL --key KEY)
               [--dry-run] [--on-conflict skip|rename] [--progress | --no-progress]
                                           links from another shortener (csv, yourls, shlink-csv,
                                           bitly, dub, sink: a file; phpshort, shlink, kutt: an API)`

function workerCount(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64) {
    throw new UsageError(`--workers must be an integer from 1 to 64, got "${raw}"`)
  }
  return Number(raw)
}

/**
 * The processes `serve` runs without --workers: one on SQLite, whose writes go through one lock
 * and share one commit within a process (its click-writing thread uses a second core), and one
 * per core on PostgreSQL (docs/adr/0005-one-process-on-sqlite.md).
 */
export function defaultWorkers(database: DatabaseConfig, cores: number): number {
  return database.kind === 'sqlite' ? 1 : cores
}

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name]
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`)
  return value
}

async function withServices<T>(
  env: CliIo['env'],
  run: (services: Services, db: Db) => Promise<T>,
): Promise<T> {
  const config = loadConfig(env)
  const db = openDatabase(config.database)
  try {
    await migrate(db)
    return await run(createServices(db, { titleFetch: false, publicUrl: config.publicUrl }), db)
  } finally {
    await db.close()
  }
}

/** Like withServices, with the sessions where the service keeps them (Redis when configured). */
async function withAccountServices<T>(
  env: CliIo['env'],
  run: (services: Services) => Promise<T>,
): Promise<T> {
  const config = loadConfig(env)
  const db = openDatabase(config.database)
  const redis = config.redisUrl ? connectRedis(config.redisUrl, () => {}) : null
  try {
    await migrate(db)
    return await run(
      createServices(db, {
        titleFetch: false,
        publicUrl: config.publicUrl,
        ...(redis ? { sessionStore: new RedisSessionStore(redis, IDLE_TIMEOUT_MS / 1000) } : {}),
      }),
    )
  } finally {
    await redis?.quit().catch(() => {})
    await db.close()
  }
}

/** A new password: typed on a terminal without echo, or the first line of piped input. */
function readPassword(io: CliIo): Promise<string> {
  return io.isTTY.stdin
    ? readSecret('New password: ', process.stdin, io.stderr)
    : firstLine(io.stdin)
}

async function userIdFor(services: Services, email: string | undefined): Promise<number | null> {
  if (email === undefined) return null
  const id = await services.users.idOfEmail(email)
  if (id === null) throw new UserInputError(`no user with email ${email}`)
  return id
}

/** Runs `slink ARGV`; resolves with the exit status once the command is done (or serving). */
export async function run(argv: string[], io: CliIo): Promise<number> {
  try {
    await dispatch(argv, io)
    return 0
  } catch (error) {
    io.stderr.write(`slink: ${describeFailure(error)}\n`)
    return error instanceof UsageError ? 2 : 1
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<void> {
  const out = lines(io.stdout)
  const [command, sub, ...rest] = argv
  const key =
    sub && !sub.startsWith('-') && ['user', 'key', 'domain'].includes(command ?? '')
      ? `${command} ${sub}`
      : command
  const args = key === command ? argv.slice(1) : rest

  switch (key) {
    case 'serve': {
      const { values } = parseCommand(args, { values: ['workers'] })
      const asked = values.workers === undefined ? undefined : workerCount(values.workers)
      const config = loadConfig(io.env)
      const workers = asked ?? defaultWorkers(config.database, availableParallelism())
      tuneHeapForServing()
      // Only serving needs the HTTP stack; the other commands start faster without it.
      const { startService, stopOnSignals } = await import('../composition/server.js')
      if (cluster.isWorker) {
        const { reportListening } = await import('../composition/cluster-workers.js')
        const starting = startService(config, out, { worker: true })
        stopOnSignals(starting, lines(io.stderr))
        // The primary replaces workers on SIGHUP; one reaching a worker (a hangup of the
        // process group) leaves it running.
        process.on('SIGHUP', () => {})
        reportListening((await starting).port)
      } else if (workers === 1) {
        const starting = startService(config, out)
        stopOnSignals(starting, lines(io.stderr))
        process.on('SIGHUP', () =>
          lines(io.stderr)(
            'SIGHUP received: replacing the code without downtime needs --workers 2 or more; still running',
          ),
        )
        await starting
      } else {
        const { serveWithWorkers } = await import('../composition/cluster-workers.js')
        await serveWithWorkers(config, workers, out)
      }
      return
    }
    case 'migrate': {
      parseCommand(args, {})
      const config = loadConfig(io.env)
      const db = openDatabase(config.database)
      try {
        const { applied } = await migrate(db)
        out(applied.length ? `applied ${applied.join(', ')}` : 'the schema is up to date')
      } finally {
        await db.close()
      }
      return
    }
    case 'user create': {
      const { values } = parseCommand(args, { values: ['email', 'name', 'timezone', 'api-key'] })
      const email = required(values, 'email')
      const apiKey = await withServices(io.env, async (services) => {
        const created = await services.users.createUser({
          email,
          ...(values.name !== undefined ? { name: values.name } : {}),
          ...(values.timezone !== undefined ? { timezone: values.timezone } : {}),
          ...(values['api-key'] !== undefined ? { apiKey: values['api-key'] } : {}),
        })
        return created.apiKey
      })
      out(apiKey)
      return
    }
    case 'user password': {
      const { values } = parseCommand(args, { values: ['email'] })
      const email = required(values, 'email')
      const password = await readPassword(io)
      const problem = passwordProblem(password)
      if (problem) throw new UserInputError(problem)
      await withAccountServices(io.env, async (services) => {
        const user = await services.accounts.findByEmail(email)
        await services.accounts.setPassword(user.id, password)
      })
      out(`password set for ${email}; their sessions have ended`)
      return
    }
    case 'user reset-link': {
      const { values } = parseCommand(args, { values: ['email'] })
      const email = required(values, 'email')
      const config = loadConfig(io.env)
      // On the address the service last started with, unless PUBLIC_URL is given here.
      const { token, publicUrl } = await withServices(io.env, async (services, db) => ({
        token: await services.accounts.issueToken((await services.accounts.findByEmail(email)).id),
        publicUrl: io.env.PUBLIC_URL ? config.publicUrl : await storedPublicUrl(db),
      }))
      out(passwordLink(publicUrl ?? config.publicUrl, token))
      return
    }
    case 'key create': {
      const { values } = parseCommand(args, { values: ['email', 'name'] })
      const email = required(values, 'email')
      const name = values.name?.trim()
      if (name !== undefined && (name === '' || name.length > 64))
        throw new UserInputError('a key name must be 1 to 64 characters')
      out(await withServices(io.env, (services) => services.users.createKey(email, name)))
      return
    }
    case 'key revoke': {
      const { positionals } = parseCommand(args, { positionals: 1 })
      await withServices(io.env, (services) => services.users.revokeKey(positionals[0]!))
      out('revoked')
      return
    }
    case 'domain add': {
      const { values, positionals } = parseCommand(args, { values: ['email'], positionals: 1 })
      const domain = await withServices(io.env, async (services) =>
        services.domains.create(await userIdFor(services, values.email), { name: positionals[0]! }),
      )
      out(
        `${domain.id}\t${domain.name}\t${domain.url}\t${domain.user_id === null ? 'global' : 'user'}`,
      )
      return
    }
    case 'domain list': {
      parseCommand(args, {})
      const domains = await withServices(io.env, (services) => services.domains.listAll())
      out('id\tname\turl\towner')
      for (const d of domains)
        out(`${d.id}\t${d.name}\t${d.url}\t${d.user_id === null ? 'global' : `user ${d.user_id}`}`)
      return
    }
    case 'export': {
      const { exportCommand } = await import('./transfer-commands.js')
      await exportCommand(args, io)
      return
    }
    case 'import': {
      const { importCommand } = await import('./transfer-commands.js')
      await importCommand(args, io)
      return
    }
    case 'backup': {
      const { backupCommand } = await import('./backup.js')
      await backupCommand(args, io)
      return
    }
    case 'import-links': {
      const { importLinksCommand } = await import('./import-links.js')
      await importLinksCommand(args, io)
      return
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      out(USAGE)
      out('\nconfiguration (environment variables, with their defaults):')
      for (const [name, fallback, about] of CONFIG_VARIABLES)
        out(`  ${name} = ${fallback}\n      ${about}`)
      return
    default:
      throw new UsageError(`unknown command "${argv.slice(0, 2).join(' ')}"`)
  }
}

/** One line for any failure a user can act on; a bare message for the unexpected. */
export function describeFailure(error: unknown): string {
  if (error instanceof ValidationError) {
    return Object.entries(error.fields)
      .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
      .join('; ')
  }
  if (
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof UserInputError ||
    error instanceof SecretInputError ||
    error instanceof DatabaseUnavailableError
  ) {
    return error.message
  }
  const message = (error as Error)?.message ?? String(error)
  return message.split('\n')[0]!
}
