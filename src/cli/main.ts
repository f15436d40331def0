#!/usr/bin/env node
/** Entry point of the `slink` command. */
import { UsageError } from './args.js'
import { describeFailure, run } from './commands.js'

run(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`slink: ${describeFailure(error)}\n`)
  process.exit(error instanceof UsageError ? 2 : 1)
})
