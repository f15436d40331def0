/** The two servers a benchmark compares: `slink serve` and a bare node:http server answering 302. */
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url))

export interface Running {
  port: number
  child: ChildProcess
  stop(): Promise<number | null>
}

export function waitForPort(child: ChildProcess, pattern: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = ''
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      const match = pattern.exec(out)
      if (match) resolve(Number(match[1]))
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.on('exit', (code) =>
      reject(new Error(`server exited (${code}) before listening:\n${out}`)),
    )
  })
}

export function running(child: ChildProcess, port: number): Running {
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    port,
    child,
    stop: () => {
      child.kill('SIGTERM')
      return exited
    },
  }
}

export async function startSlink(
  dbPath: string,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<Running> {
  const args = extraArgs.includes('--workers') ? extraArgs : ['--workers', '1', ...extraArgs]
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${dbPath}`,
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://127.0.0.1',
      API_RATE_LIMIT: '0',
      TITLE_FETCH: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return running(child, await waitForPort(child, /listening on port (\d+)/))
}

export async function startBare(dir: string): Promise<Running> {
  const file = join(dir, 'bare.cjs')
  writeFileSync(
    file,
    "const http = require('node:http')\n" +
      'const server = http.createServer((req, res) => {\n' +
      "  res.writeHead(302, { location: 'https://example.com/landing/1?src=bench', 'cache-control': 'no-store' })\n" +
      '  res.end()\n' +
      '})\n' +
      "server.listen(0, '127.0.0.1', () => console.log(`bare listening on ${server.address().port}`))\n" +
      "process.on('SIGTERM', () => server.close(() => process.exit(0)))\n",
  )
  const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] })
  return running(child, await waitForPort(child, /bare listening on (\d+)/))
}
