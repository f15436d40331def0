import { afterAll, describe } from 'vitest'
import { postgresCheck, postgresPerFile } from '../support/databases.js'
import { storeContract } from './contract.js'

const postgres = await postgresCheck()

describe.skipIf(!postgres.ok)('PostgreSQL', () => {
  const database = postgresPerFile()
  afterAll(() => database.drop())
  storeContract('PostgreSQL', () => database.fresh())
})
