/**
 * Runs the service: opens and migrates the database, makes sure there is a first user and a
 * default domain, listens, and shuts down gracefully (stop accepting, answer what is in
 * flight, finish background work, close the database).
 */
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import type { Config } from './config.js'
import { openDatabase } from './db/connect.js'
import { migrate } from './db/migrate.js'
import { createRedirects, type Redirects } from './redirects/setup.js'
import { createServices, serviceOptionsFrom, type Services } from './services.js'

export interface RunningService {
  app: FastifyInstance
  services: Services
  redirects: Redirects
  /** The address actually bound (useful with PORT=0). */
  url: string
  stop(): Promise<void>
}

export async function startService(
  config: Config,
  say: (line: string) => void = console.log,
): Promise<RunningService> {
  const db = openDatabase(config.database)
  try {
    await migrate(db)
  } catch (error) {
    await db.close()
    throw error
  }
  const services = createServices(db, serviceOptionsFrom(config))
  const first = await services.users.ensureFirstUser(config.initialApiKey)
  const defaultDomain = await services.domains.ensureDefault(config.publicUrl)
  const redirects = await createRedirects(services, config, {
    onFlushError: (error) => app.log.error({ err: error }, 'writing clicks failed; will retry'),
  })
  const app = await buildApp({
    config,
    services,
    redirects,
    defaultDomainId: () => defaultDomain.id,
  })
  await app.listen({ port: config.port, host: config.host })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  if (first?.apiKey) {
    say(`Created the first user (${first.email}). Its API key, shown only this once:`)
    say(first.apiKey)
  }
  say(`slink is listening on port ${port}; short links at ${config.publicUrl.origin}`)

  let stopping: Promise<void> | null = null
  const stop = () =>
    (stopping ??= (async () => {
      // Keep-alive connections that finish their last response while closing are dropped promptly.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100)
      try {
        await app.close()
      } finally {
        clearInterval(sweep)
      }
      await redirects.recorder.close()
      await services.titles?.idle()
      await db.close()
    })())
  return { app, services, redirects, url: `http://127.0.0.1:${port}`, stop }
}

/**
 * SIGTERM and SIGINT (once or several times) stop the service gracefully, then exit. Installed
 * before the service starts, so a signal that arrives while it starts is not lost.
 */
export function stopOnSignals(
  starting: Promise<RunningService>,
  log: (line: string) => void = console.error,
): void {
  let handled = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (handled) return
    handled = true
    log(`${signal} received: finishing in-flight requests and stopping`)
    const force = setTimeout(() => {
      log('shutdown took longer than 15 s; exiting')
      process.exit(1)
    }, 15_000)
    force.unref()
    starting
      .then((service) => service.stop())
      .then(
        () => process.exit(0),
        (error: Error) => {
          log(`shutdown failed: ${error.message}`)
          process.exit(1)
        },
      )
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)
}
