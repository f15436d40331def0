import { randomBytes } from 'node:crypto'
import { connect } from 'node:net'
import { defineConfig, type ViteUserConfig } from 'vitest/config'

/**
 * Two projects: every test on SQLite, and the HTTP suite again on PostgreSQL. Without a
 * reachable PostgreSQL the second project is left out with a one-line reason, except under
 * CI=true, where the run fails.
 */
const postgresUrl = new URL(
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
)

/**
 * This run's name, inherited by every test process: the PostgreSQL databases the processes keep
 * for reuse carry it, and the run's teardown (test/support/global-setup.ts) drops them.
 */
process.env.SLINK_TEST_RUN ??= `r${randomBytes(4).toString('hex')}`

/** Test files that mock a module (vi.mock): they need a module registry of their own. */
const MOCKING = ['test/unit/visitor-context.test.ts']

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 1000 })
    socket.on('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.on('error', () => resolve(false))
    socket.on('timeout', () => {
      socket.destroy()
      resolve(false)
    })
  })
}

export default defineConfig(async (): Promise<ViteUserConfig> => {
  const postgres = await reachable(postgresUrl.hostname, Number(postgresUrl.port || 5432))
  if (!postgres) {
    const reason = `PostgreSQL not reachable at ${postgresUrl.host}`
    if (process.env.CI === 'true') throw new Error(`${reason} (required under CI=true)`)
    console.warn(`skipping the HTTP suite on PostgreSQL: ${reason}`)
  }
  return {
    test: {
      pool: 'forks',
      maxWorkers: 2,
      testTimeout: 20_000,
      hookTimeout: 30_000,
      globalSetup: ['test/support/global-setup.ts'],
      // Test files share their worker's modules (importing the app once per worker, not once
      // per file); a file that mocks a module runs in a project of its own, isolated.
      isolate: false,
      projects: [
        {
          extends: true,
          test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: MOCKING },
        },
        { extends: true, test: { name: 'mocking', include: MOCKING, isolate: true } },
        ...(postgres
          ? [
              {
                extends: true as const,
                test: {
                  name: 'postgres',
                  include: ['test/http/**/*.test.ts'],
                  env: { TEST_DATABASE: 'postgres' },
                },
              },
            ]
          : []),
      ],
    },
  }
})
