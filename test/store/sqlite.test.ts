import { freshSqlite } from '../support/databases.js'
import { storeContract } from './contract.js'

storeContract('SQLite', freshSqlite)
