/**
 * An in-process app on a fresh database (an SQLite file, or a PostgreSQL database of its own
 * when TEST_DATABASE=postgres), with two users (for tenancy tests) and the default domain
 * `http://short.test`. Requests go through `app.inject`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../src/composition/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import { openDatabase } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'
import {
  createServices,
  type ServiceOptions,
  type Services,
} from '../../src/composition/services.js'
import { migratedPostgres, migratedSqlite } from './databases.js'

export const KEY_A = 'test-key-user-a-0123456789'
export const KEY_B = 'test-key-user-b-0123456789'

export interface TestApp {
  app: FastifyInstance
  services: Services
  config: Config
  dir: string
  defaultDomainId: number
  userA: number
  userB: number
  /** Sends a request as user A (or with `key`), form-encoding an object body. */
  call(
    method: InjectOptions['method'],
    url: string,
    options?: CallOptions,
  ): Promise<LightMyRequestResponse>
  close(): Promise<void>
}

export interface CallOptions {
  form?: Record<string, string | number> | string
  json?: unknown
  key?: string | null
  headers?: Record<string, string>
}

export function formBody(form: Record<string, string | number> | string): string {
  if (typeof form === 'string') return form
  return Object.entries(form)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&')
}

export async function createTestApp(
  env: Record<string, string> = {},
  serviceOptions: Partial<ServiceOptions> = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'slink-test-'))
  // TEST_DATABASE=postgres (set by the vitest project of that name) runs the suite on PostgreSQL.
  const postgres = process.env.TEST_DATABASE === 'postgres' ? await migratedPostgres() : null
  const config = loadConfig({
    DATABASE_URL: postgres ? postgres.url : `sqlite:${join(dir, 'test.db')}`,
    PUBLIC_URL: 'http://short.test',
    LOG_LEVEL: 'silent',
    TITLE_FETCH: 'false',
    API_RATE_LIMIT: '10000',
    ...env,
  })
  if (!postgres && env.DATABASE_URL === undefined) await migratedSqlite(join(dir, 'test.db'))
  const db = openDatabase(config.database)
  await migrate(db)
  const services = createServices(db, { titleFetch: false, ...serviceOptions })
  const a = await services.users.createUser({
    email: 'a@example.com',
    name: 'Alice',
    apiKey: KEY_A,
  })
  const b = await services.users.createUser({ email: 'b@example.com', name: 'Bob', apiKey: KEY_B })
  const domain = await services.domains.ensureDefault(config.publicUrl)
  const app = await buildApp({ config, services, defaultDomainId: () => domain.id })
  await app.ready()

  const call: TestApp['call'] = (method, url, options = {}) => {
    const headers: Record<string, string> = { ...options.headers }
    const key = options.key === undefined ? KEY_A : options.key
    if (key !== null) headers.authorization = `Bearer ${key}`
    let payload: string | undefined
    if (options.form !== undefined) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded'
      payload = formBody(options.form)
    } else if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json'
      payload = JSON.stringify(options.json)
    }
    return app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) })
  }

  return {
    app,
    services,
    config,
    dir,
    defaultDomainId: domain.id,
    userA: a.user.id,
    userB: b.user.id,
    call,
    close: async () => {
      await app.close()
      await services.titles?.idle()
      await db.close()
      await postgres?.drop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
