/**
 * The test run's teardown, in vitest's main process: once every test has run, the PostgreSQL
 * databases the run's test processes kept for reuse (`migratedPostgres`) are dropped.
 */
import { dropKeptDatabases, postgresCheck, TEST_RUN } from './databases.js'

export default function setup(): () => Promise<void> {
  return async () => {
    if (TEST_RUN === '' || !(await postgresCheck()).ok) return
    await dropKeptDatabases(TEST_RUN)
  }
}
