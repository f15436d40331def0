/**
 * What a `slink` command reads and writes: its environment, its three standard streams and
 * whether they are terminals. `processIo` is the real process's; tests pass their own to run a
 * command in-process. Commands return their exit status instead of exiting.
 */
import { fstatSync } from 'node:fs'
import type { Writable } from 'node:stream'
import { isatty } from 'node:tty'

export interface CliIo {
  env: Record<string, string | undefined>
  stdin: AsyncIterable<Buffer>
  stdout: Writable
  /** `columns` is the terminal's width when stderr is one (progress bars fit it). */
  stderr: Writable & { columns?: number | undefined }
  isTTY: { stdin: boolean; stdout: boolean; stderr: boolean }
  /** Standard output is a pipe or a socket: another program reads it as it comes. */
  stdoutPiped(): boolean
}

export function processIo(): CliIo {
  return {
    env: process.env,
    // Opened only by a command that reads it.
    get stdin() {
      return process.stdin
    },
    stdout: process.stdout,
    stderr: process.stderr,
    isTTY: {
      stdin: isatty(0),
      stdout: process.stdout.isTTY === true,
      stderr: process.stderr.isTTY === true,
    },
    stdoutPiped() {
      const stat = fstatSync(1)
      return stat.isFIFO() || stat.isSocket()
    },
  }
}

/** A writer of whole lines to `stream`. */
export function lines(stream: Writable): (line: string) => void {
  return (line) => {
    stream.write(`${line}\n`)
  }
}
