/**
 * A NATS server (JetStream on) or a Redis server of a test's own, on a free loopback port with
 * its data in a temporary directory, to stop and start again under load; the machine's shared
 * servers are never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ServiceCheck } from './databases.js'
import { freePort } from './ports.js'

export const NATS_SERVER = '/usr/sbin/nats-server'
export const REDIS_SERVER = '/usr/bin/redis-server'

/** Whether `binary` is installed: a one-line reason to skip if not (a failure under CI=true). */
export function binaryCheck(binary: string): ServiceCheck {
  if (existsSync(binary)) return { ok: true, reason: '' }
  const reason = `${binary} is not installed`
  if (process.env.CI === 'true') throw new Error(`${reason} (required under CI=true)`)
  console.warn(`skipping: ${reason}`)
  return { ok: false, reason }
}

export interface OwnServer {
  url: string
  start(): Promise<void>
  stop(): Promise<void>
  remove(): Promise<void>
}

export async function ownServer(kind: 'nats' | 'redis'): Promise<OwnServer> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), `slink-${kind}-`))
  // Redis keeps its stream over the restart in an append-only file synced at every write.
  const [binary, args, ready] =
    kind === 'nats'
      ? [NATS_SERVER, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], /Server is ready/]
      : [
          REDIS_SERVER,
          ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'yes'],
          /Ready to accept connections/,
        ]
  const extra = kind === 'redis' ? ['--appendfsync', 'always', '--dir', dir] : []
  let child: ChildProcess | null = null
  const server: OwnServer = {
    url: `${kind}://127.0.0.1:${port}`,
    start: () =>
      new Promise((resolve, reject) => {
        const started = spawn(binary, [...args, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] })
        child = started
        let out = ''
        const onData = (chunk: Buffer) => {
          out += chunk.toString()
          if (ready.test(out)) {
            started.stdout.off('data', onData)
            started.stderr.off('data', onData)
            resolve()
          }
        }
        started.stdout.on('data', onData)
        started.stderr.on('data', onData)
        started.once('exit', (code) => reject(new Error(`${binary} exited (${code}):\n${out}`)))
      }),
    async stop() {
      const running = child
      child = null
      if (!running || running.exitCode !== null) return
      const exited = new Promise((resolve) => running.once('exit', resolve))
      running.kill('SIGTERM')
      await exited
    },
    async remove() {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
  await server.start()
  return server
}
