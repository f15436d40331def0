/**
 * deploy/Caddyfile with the real Caddy (Debian's `caddy`) in front of a real `slink serve`,
 * on loopback: the shipped file, adapted by Caddy itself, with its ports, storage and
 * certificate issuer changed for the test (Caddy's internal CA instead of Let's Encrypt, whose
 * root the client trusts, so each certificate's name is checked as a browser would).
 * Skipped with a reason without `caddy`, except under CI=true, where that fails.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as plainRequest } from 'node:http'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, type PeerCertificate } from 'node:tls'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from '../support/server.js'
import { freePort } from '../support/ports.js'

const CADDYFILE = fileURLToPath(new URL('../../deploy/Caddyfile', import.meta.url))
/** Where deploy/Caddyfile expects slink. */
const SHIPPED_UPSTREAM = '127.0.0.1:8080'

function caddyCheck(): { ok: boolean; reason: string } {
  const found = spawnSync('caddy', ['version'], { encoding: 'utf8' })
  if (found.status === 0) return { ok: true, reason: '' }
  const reason = 'caddy is not installed (apt-get install -y caddy)'
  if (process.env.CI === 'true') throw new Error(`${reason} (required under CI=true)`)
  console.warn(`skipping the Caddy tests: ${reason}`)
  return { ok: false, reason }
}

const caddy = caddyCheck()

interface JsonObject {
  [key: string]: unknown
}

/** deploy/Caddyfile as Caddy reads it (JSON), pointed at this test's slink, ports and storage. */
function testConfig(slinkPort: number, httpPort: number, httpsPort: number, dir: string): string {
  const adapted = spawnSync('caddy', ['adapt', '--config', CADDYFILE, '--adapter', 'caddyfile'], {
    encoding: 'utf8',
  })
  if (adapted.status !== 0) throw new Error(`caddy adapt failed: ${adapted.stderr}`)
  const text = adapted.stdout.replaceAll(SHIPPED_UPSTREAM, `127.0.0.1:${slinkPort}`)
  expect(text).toContain(`"ask":"http://127.0.0.1:${slinkPort}/tls/allowed"`)
  const config = JSON.parse(text) as JsonObject
  const apps = config.apps as JsonObject
  const http = apps.http as JsonObject
  const servers = http.servers as Record<string, JsonObject>
  for (const server of Object.values(servers)) {
    const listen = server.listen as string[]
    server.listen = listen.map((l) =>
      l === ':443' ? `127.0.0.1:${httpsPort}` : `127.0.0.1:${httpPort}`,
    )
  }
  http.http_port = httpPort
  http.https_port = httpsPort
  const automation = (apps.tls as JsonObject).automation as JsonObject
  for (const policy of automation.policies as JsonObject[])
    policy.issuers = [{ module: 'internal' }]
  apps.pki = { certificate_authorities: { local: { install_trust: false } } }
  config.storage = { module: 'file_system', root: join(dir, 'storage') }
  config.admin = { disabled: true }
  config.logging = { logs: { default: { level: 'INFO' } } }
  return JSON.stringify(config)
}

interface Handshake {
  authorized: boolean
  certificate: PeerCertificate
}

let slink: TestServer
let proxy: ChildProcess
let dir: string
let httpsPort: number
let httpPort: number
let root: string

/** A TLS handshake with Caddy naming `servername`, trusting only Caddy's internal root. */
function handshake(servername: string): Promise<Handshake> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: httpsPort, servername, ca: root })
    socket.once('secureConnect', () => {
      resolve({ authorized: socket.authorized, certificate: socket.getPeerCertificate() })
      socket.end()
    })
    socket.once('error', reject)
  })
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** An HTTPS request to `host` through Caddy (from `localAddress`, 127.0.0.1 by default). */
function get(
  host: string,
  path: string,
  options: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: httpsPort,
        servername: host,
        path,
        ca: root,
        agent: false,
        localAddress: options.localAddress ?? '127.0.0.1',
        headers: { host, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
      },
    )
    req.on('error', reject)
    req.end()
  })
}

describe.runIf(caddy.ok)('Caddy in front of slink (deploy/Caddyfile, on-demand TLS)', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slink-caddy-'))
    slink = await startServer({ TRUST_PROXY: '127.0.0.1', TLS_ASK_FROM: '127.0.0.1' })
    ;[httpPort, httpsPort] = [await freePort(), await freePort()]
    const configPath = join(dir, 'caddy.json')
    writeFileSync(configPath, testConfig(slink.port, httpPort, httpsPort, dir))
    proxy = spawn('caddy', ['run', '--config', configPath], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    // Caddy logs JSON lines on stderr; it is ready once it says it serves the configuration.
    let log = ''
    await new Promise<void>((resolve, reject) => {
      proxy.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString('utf8')
        if (log.includes('serving initial configuration')) resolve()
      })
      proxy.once('exit', (code) => reject(new Error(`caddy exited (${code}): ${log}`)))
    })
    root = readFileSync(join(dir, 'storage', 'pki', 'authorities', 'local', 'root.crt'), 'utf8')
  })

  afterAll(async () => {
    if (proxy && proxy.exitCode === null) {
      proxy.kill('SIGTERM')
      await once(proxy, 'exit')
    }
    await slink?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('gives a domain added through the API a certificate on its first HTTPS visit, and redirects its links', async () => {
    const domain = await slink.api('POST', '/domains', { name: 'links.example.org' })
    expect(domain.status).toBe(201)
    const domainId = (domain.json as { data: { id: number } }).data.id
    const link = await slink.api('POST', '/links', {
      url: 'https://example.com/landing',
      alias: 'promo',
      domain_id: domainId,
    })
    expect(link.status).toBe(201)

    const first = await handshake('links.example.org')
    expect(first.authorized).toBe(true)
    expect(first.certificate.subjectaltname).toBe('DNS:links.example.org')

    const visit = await get('links.example.org', '/promo')
    expect(visit.status).toBe(302)
    expect(visit.headers.location).toBe('https://example.com/landing')

    // The default domain is served too.
    const home = await handshake('short.test')
    expect(home.authorized).toBe(true)
    expect(home.certificate.subjectaltname).toBe('DNS:short.test')
  })

  it('refuses a name slink does not serve at the handshake', async () => {
    await expect(handshake('not-ours.example.net')).rejects.toMatchObject({
      code: 'ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR',
    })
  })

  it('gets no new certificate for a domain once it is deleted', async () => {
    const created = await slink.api('POST', '/domains', { name: 'brief.example.org' })
    expect(created.status).toBe(201)
    const id = (created.json as { data: { id: number } }).data.id
    expect((await slink.api('DELETE', `/domains/${id}`)).status).toBe(200)
    await expect(handshake('brief.example.org')).rejects.toMatchObject({
      code: 'ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR',
    })
  })

  it('sends plain HTTP on port 80 to HTTPS (308)', async () => {
    const answer = await new Promise<{ status: number; location: string | undefined }>(
      (resolve, reject) => {
        const req = plainRequest(
          {
            host: '127.0.0.1',
            port: httpPort,
            path: '/promo?x=1',
            agent: false,
            headers: { host: 'links.example.org' },
          },
          (res) => {
            res.resume()
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, location: res.headers.location }),
            )
          },
        )
        req.on('error', reject)
        req.end()
      },
    )
    expect(answer).toEqual({ status: 308, location: 'https://links.example.org/promo?x=1' })
  })

  it('passes the visitor’s address to slink in X-Forwarded-For', async () => {
    // slink answers /tls/allowed only when every hop is 127.0.0.1 (TLS_ASK_FROM): a visitor
    // on 127.0.0.2 that Caddy relays is refused, whatever X-Forwarded-For it sends.
    const direct = await get('short.test', '/tls/allowed?domain=short.test')
    expect(direct.status).toBe(200)
    expect(JSON.parse(direct.body)).toEqual({ domain: 'short.test', allowed: true })
    for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }] as Record<string, string>[]) {
      const relayed = await get('short.test', '/tls/allowed?domain=short.test', {
        localAddress: '127.0.0.2',
        headers,
      })
      expect(relayed.status).toBe(404)
      expect(relayed.headers['content-type']).toBe('text/html; charset=utf-8')
    }
  })
})
