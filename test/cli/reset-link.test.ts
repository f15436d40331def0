/**
 * `slink user reset-link` prints its link on the address the service last started with (kept
 * in the database), so an operator need not give PUBLIC_URL again; a PUBLIC_URL given to the
 * command wins.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve, slink } from '../support/cli.js'

describe('slink user reset-link', () => {
  let dir: string
  let env: Record<string, string>

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slink-reset-link-'))
    env = { DATABASE_URL: `sqlite:${join(dir, 'reset.db')}` }
    const server = serve({ ...env, PORT: '0', PUBLIC_URL: 'https://sho.rt' })
    await server.waitFor(/listening on port/)
    server.kill()
    expect(await server.exited).toBe(0)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('prints the link on the PUBLIC_URL the service started with', async () => {
    const res = await slink(['user', 'reset-link', '--email', 'admin@localhost'], env)
    expect(res.status).toBe(0)
    expect(res.stdout).toMatch(/^https:\/\/sho\.rt\/password\/[A-Za-z0-9_-]{43}\n$/)
  })

  it('prints it on a PUBLIC_URL given to the command instead', async () => {
    const res = await slink(['user', 'reset-link', '--email', 'admin@localhost'], {
      ...env,
      PUBLIC_URL: 'http://other.test:9000',
    })
    expect(res.status).toBe(0)
    expect(res.stdout).toMatch(/^http:\/\/other\.test:9000\/password\/[A-Za-z0-9_-]{43}\n$/)
  })
})
