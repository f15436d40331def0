/**
 * The README's API examples run top to bottom on a fresh database exactly as written: every
 * curl command of the "## API" section, in order, with only the key and the address filled
 * in, against the API listening on a real port. Each answers the contract's success shape.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { KEY_A, createTestApp, type TestApp } from '../support/app.js'

const run = promisify(execFile)
const README = new URL('../../README.md', import.meta.url)

/** The shell commands of the API section, backslash continuations joined, comments dropped. */
function apiExamples(): string[] {
  const text = readFileSync(README, 'utf8')
  const start = text.indexOf('\n## API\n')
  const section = text.slice(start, text.indexOf('\n## ', start + 1))
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!)
  return blocks
    .flatMap((block) => block.replace(/\\\n\s*/g, '').split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('curl '))
}

let t: TestApp
let api: string
let cwd: string

beforeAll(async () => {
  t = await createTestApp()
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const address = t.app.server.address()
  api = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`
  cwd = mkdtempSync(join(tmpdir(), 'slink-readme-'))
})
afterAll(async () => {
  await t?.close()
  if (cwd) rmSync(cwd, { recursive: true, force: true })
})

it('runs every API example of the README in order, each answering success', async () => {
  const commands = apiExamples()
  expect(commands.length).toBeGreaterThan(25)
  for (const command of commands) {
    const { stdout } = await run('bash', ['-c', command], {
      cwd,
      env: { PATH: process.env.PATH ?? '', KEY: KEY_A, API: api },
    })
    if (command.includes(' -OJ ')) {
      // Saved under the name the answer gives; nothing on stdout.
      expect(stdout, command).toBe('')
      continue
    }
    const body = JSON.parse(stdout) as { status?: number }
    expect(body.status, `${command}\n${stdout.slice(0, 500)}`).toBe(200)
  }
  expect(existsSync(join(cwd, 'stats-1-referrer-2026-01-01-2026-12-31.csv'))).toBe(true)
  expect(existsSync(join(cwd, 'qr-spring.png'))).toBe(true)
}, 120_000)
