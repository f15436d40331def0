import { describe } from 'vitest'
import { freshPostgres, postgresCheck } from '../support/databases.js'
import { storeContract } from './contract.js'

const postgres = await postgresCheck()

describe.skipIf(!postgres.ok)('PostgreSQL', () => {
  storeContract('PostgreSQL', freshPostgres)
})
