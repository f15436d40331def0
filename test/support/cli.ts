/**
 * Runs `slink`: in-process with its own environment and streams (`slink`), or as the real
 * command, the built bin, where the process boundary is what a test is about.
 */
import { spawn, spawnSync } from 'node:child_process'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { run } from '../../src/cli/commands.js'
import type { CliIo } from '../../src/cli/io.js'

export const BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))

export interface CliResult {
  status: number | null
  stdout: string
  stderr: string
}

/** A standard stream that keeps what is written to it. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = []
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
      done()
    },
  })
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') }
}

async function* bytes(input: string | Buffer | undefined): AsyncGenerator<Buffer> {
  if (input !== undefined && input.length > 0) yield Buffer.from(input)
}

/**
 * `slink ARGS` in this process, as the real command would run with `env` as its whole
 * environment, `input` on a piped standard input, and its output going to pipes, unless `tty`
 * says which of the three streams are terminals.
 */
export async function slink(
  args: string[],
  env: Record<string, string>,
  options: { input?: string | Buffer; tty?: Partial<CliIo['isTTY']> } = {},
): Promise<CliResult> {
  const stdout = collector()
  const stderr = collector()
  const status = await run(args, {
    env: { LOG_LEVEL: 'silent', ...env },
    stdin: bytes(options.input),
    stdout: stdout.stream,
    stderr: stderr.stream,
    isTTY: { stdin: false, stdout: false, stderr: false, ...options.tty },
    stdoutPiped: () => options.tty?.stdout !== true,
  })
  return { status, stdout: stdout.text(), stderr: stderr.text() }
}

/** The real `slink ARGS` (the built bin), in a process of its own. */
export function slinkProcess(
  args: string[],
  env: Record<string, string>,
  options: { input?: string | Buffer } = {},
): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 20_000,
    maxBuffer: 256 * 1024 * 1024,
    ...(options.input !== undefined ? { input: options.input } : {}),
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

export interface PipeSide {
  args: string[]
  env: Record<string, string>
}

/** `slink <left> | slink <right>`: two real processes joined by a pipe, as a shell would. */
export async function slinkPipe(left: PipeSide, right: PipeSide): Promise<[CliResult, CliResult]> {
  const start = (side: PipeSide) =>
    spawn(process.execPath, [BIN, ...side.args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...side.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
  const writer = start(left)
  const reader = start(right)
  writer.stdin.end()
  writer.stdout.pipe(reader.stdin)
  // The reader may stop early (a refusal); the writer then sees a closed pipe, as in a shell.
  reader.stdin.on('error', () => {})
  const collect = (child: ReturnType<typeof start>, stdout: boolean) =>
    new Promise<CliResult>((resolve) => {
      let out = ''
      let err = ''
      if (stdout) child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
      child.on('close', (status) => resolve({ status, stdout: out, stderr: err }))
    })
  return Promise.all([collect(writer, false), collect(reader, true)])
}

export interface ServeProcess {
  output: () => string
  /** Resolves with the first stdout line matching `pattern`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>
  exited: Promise<number | null>
  kill(signal?: NodeJS.Signals): void
}

/** `slink serve`, one process unless `args` say otherwise (`--workers N`). */
export function serve(
  env: Record<string, string>,
  args: string[] = ['--workers', '1'],
): ServeProcess {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const listeners: (() => void)[] = []
  const onData = (chunk: Buffer) => {
    out += chunk.toString()
    for (const listener of listeners) listener()
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    output: () => out,
    exited,
    kill: (signal = 'SIGTERM') => child.kill(signal),
    // Generous: a start takes seconds on a machine busy with other test runs.
    waitFor(pattern, timeoutMs = 25_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = out.match(pattern)
          if (match) {
            clearTimeout(timer)
            resolve(match)
          }
        }
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${pattern}; output:\n${out}`)),
          timeoutMs,
        )
        listeners.push(check)
        void exited.then(() => {
          check()
          reject(new Error(`process exited before ${pattern}; output:\n${out}`))
        })
        check()
      })
    },
  }
}
