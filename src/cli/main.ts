#!/usr/bin/env node
/** Entry point of the `slink` command: runs it on this process's streams and environment. */
import { run } from './commands.js'
import { processIo } from './io.js'

const status = await run(process.argv.slice(2), processIo())
// On success the process ends by itself (`serve` keeps running); a failure ends it at once.
if (status !== 0) process.exit(status)
