/**
 * /metrics of the real `slink serve --workers 2`: the primary serves one view of both workers
 * on METRICS_PORT, behind METRICS_TOKEN, with exact counts of what the test did, and the text
 * passes Prometheus's own `promtool check metrics`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve, type ServeProcess } from '../support/cli.js'
import { hasPromtool, promtoolCheck, sample, samples } from '../support/metrics.js'
import { startReceiver, type Receiver } from '../support/receiver.js'
import { API_KEY, BROWSER_UA, eventually, HOST, send } from '../support/server.js'
import { freePort } from '../support/ports.js'

const TOKEN = 'metrics-token-0123456789abcdef'
const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

describe('slink serve --workers 2 with METRICS_PORT and METRICS_TOKEN', () => {
  let dir: string
  let server: ServeProcess
  let port: number
  let metricsPort: number
  let receiver: Receiver
  const scrape = (token: string | null = TOKEN) =>
    send(
      metricsPort,
      '/metrics',
      token === null ? {} : { headers: { authorization: `Bearer ${token}` } },
    )
  const api = (method: string, path: string, body?: string) =>
    send(port, `/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${API_KEY}`,
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body } : {}),
    })
  const visit = (alias: string, userAgent = BROWSER_UA) =>
    send(port, `/${alias}`, { headers: { 'user-agent': userAgent } })

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slink-metrics-'))
    receiver = await startReceiver('/hook')
    metricsPort = await freePort()
    server = serve(
      {
        DATABASE_URL: `sqlite:${join(dir, 'm.db')}`,
        PORT: '0',
        PUBLIC_URL: `http://${HOST}`,
        INITIAL_API_KEY: API_KEY,
        API_RATE_LIMIT: '0',
        TITLE_FETCH: 'false',
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        METRICS_PORT: String(metricsPort),
        METRICS_TOKEN: TOKEN,
      },
      ['--workers', '2'],
    )
    port = Number((await server.waitFor(/listening on port (\d+) with 2 workers/))[1])
  }, 30_000)
  afterAll(async () => {
    server.kill('SIGTERM')
    await server.exited
    await receiver.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('asks for the token: 401 without it or with a wrong one, 404 off /metrics', async () => {
    const missing = await scrape(null)
    expect(missing.status).toBe(401)
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="metrics"')
    expect(missing.body).toBe('Unauthorized: send Authorization: Bearer <METRICS_TOKEN>.\n')
    expect((await scrape(`${TOKEN}x`)).status).toBe(401)
    expect((await scrape('short')).status).toBe(401)
    const right = await scrape()
    expect(right.status).toBe(200)
    expect(right.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(
      (await send(metricsPort, '/other', { headers: { authorization: `Bearer ${TOKEN}` } })).status,
    ).toBe(404)
  })

  it('counts redirects, API requests, clicks, deliveries and import rows of both workers exactly', async () => {
    // Both workers answer: /health names the worker of each new connection.
    const workers = new Set<number>()
    let healthChecks = 0
    while (workers.size < 2) {
      const health = await send(port, '/health')
      healthChecks++
      workers.add((JSON.parse(health.body) as { worker: number }).worker)
      expect(healthChecks).toBeLessThan(200)
    }

    const hook = await send(port, '/api/v1/webhooks', {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}`, events: ['link.created'] }),
    })
    expect(hook.status).toBe(201)
    for (const form of [
      'url=https://example.com/ok&domain_id=1&alias=ok',
      'url=https://example.com/once&domain_id=1&alias=once&expiration_clicks=1',
      'url=https://example.com/locked&domain_id=1&alias=locked&password=secret-word',
    ]) {
      expect((await api('POST', '/links', form)).status).toBe(201)
    }
    expect((await api('GET', '/links')).status).toBe(200)
    expect((await send(port, '/api/v1/links')).status).toBe(401)

    const statuses = [
      ...(await Promise.all([visit('ok'), visit('ok'), visit('ok'), visit('once')])),
      await visit('once'),
      ...(await Promise.all([visit('ok', BOT_UA), visit('ok', BOT_UA)])),
      ...(await Promise.all([visit('missing-one'), visit('missing-two')])),
      await visit('locked'),
    ].map((r) => r.status)
    expect(statuses).toEqual([302, 302, 302, 302, 410, 302, 302, 404, 404, 200])
    // The main port never serves metrics: `/metrics` there is an alias no link has.
    const main = await send(port, '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(main.status).toBe(404)

    // An import of one good row and one bad one.
    const boundary = 'metrics-boundary'
    const csv = 'url,alias\nhttps://example.com/imported,imported\njavascript:alert(1),bad\n'
    const imported = await send(port, '/api/v1/imports', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${API_KEY}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: [
        `--${boundary}`,
        'Content-Disposition: form-data; name="source"',
        '',
        'csv',
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="links.csv"',
        'Content-Type: text/csv',
        '',
        csv,
        `--${boundary}--`,
        '',
      ].join('\r\n'),
    })
    expect(imported.status, imported.body).toBe(202)
    // Four links created (three by the API, one by the import): four deliveries.
    await receiver.waitFor(4, 15_000)

    const want = new Map<string, number>([
      [sample('slink_redirects_total', { outcome: 'redirected' }), 4],
      [sample('slink_redirects_total', { outcome: 'bot' }), 2],
      [sample('slink_redirects_total', { outcome: 'not_found' }), 3],
      [sample('slink_redirects_total', { outcome: 'expired' }), 1],
      [sample('slink_redirects_total', { outcome: 'password' }), 1],
      [sample('slink_redirects_total', { outcome: 'error' }), 0],
      [sample('slink_redirect_duration_seconds_count', { outcome: 'redirected' }), 4],
      [sample('slink_redirect_duration_seconds_count', { outcome: 'not_found' }), 3],
      [
        sample('slink_http_requests_total', { method: 'GET', route: '/health', status: '200' }),
        healthChecks,
      ],
      [
        sample('slink_http_requests_total', {
          method: 'POST',
          route: '/api/v1/links',
          status: '201',
        }),
        3,
      ],
      [
        sample('slink_http_requests_total', {
          method: 'GET',
          route: '/api/v1/links',
          status: '200',
        }),
        1,
      ],
      [
        sample('slink_http_requests_total', {
          method: 'GET',
          route: '/api/v1/links',
          status: '401',
        }),
        1,
      ],
      [
        sample('slink_http_requests_total', {
          method: 'POST',
          route: '/api/v1/imports',
          status: '202',
        }),
        1,
      ],
      [sample('slink_clicks_written_total'), 4],
      [sample('slink_click_backlog'), 0],
      [sample('slink_redirects_waiting'), 0],
      [sample('slink_webhook_deliveries_total', { outcome: 'delivered' }), 4],
      [sample('slink_webhook_deliveries_total', { outcome: 'failed' }), 0],
      [sample('slink_webhook_oldest_pending_seconds'), 0],
      [sample('slink_import_rows_total', { outcome: 'created' }), 1],
      [sample('slink_import_rows_total', { outcome: 'invalid' }), 1],
    ])
    const matches = (text: string) => {
      const got = samples(text)
      return [...want].every(([key, value]) => got.get(key) === value)
    }
    // Clicks, deliveries and import rows are counted after their answers: wait until they are.
    const read = async () => {
      const reply = await scrape()
      if (reply.status !== 200)
        throw new Error(`${reply.status}; the server said:\n${server.output()}`)
      return reply.body
    }
    const last = await eventually(read, matches, 15_000)
    const got = samples(last)
    expect(Object.fromEntries([...want.keys()].map((key) => [key, got.get(key)]))).toEqual(
      Object.fromEntries(want),
    )
    expect(got.get('nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0)
    // SQLite has no connection pool to report.
    expect([...got.keys()].some((key) => key.startsWith('slink_db_pool'))).toBe(false)

    if (!hasPromtool && process.env.CI !== 'true') {
      console.warn('promtool is missing (apt-get install prometheus): its check is skipped')
      return
    }
    const checked = await promtoolCheck(last)
    expect(checked).toEqual({ code: 0, output: '' })
  }, 60_000)
})

describe('slink serve (one process) with METRICS_PORT and no token', () => {
  let dir: string
  let server: ServeProcess
  let port: number
  let metricsPort: number

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slink-metrics-one-'))
    metricsPort = await freePort()
    server = serve({
      DATABASE_URL: `sqlite:${join(dir, 'one.db')}`,
      PORT: '0',
      PUBLIC_URL: `http://${HOST}`,
      INITIAL_API_KEY: API_KEY,
      TITLE_FETCH: 'false',
      METRICS_PORT: String(metricsPort),
    })
    port = Number((await server.waitFor(/listening on port (\d+)/))[1])
  }, 30_000)
  afterAll(async () => {
    server.kill('SIGTERM')
    await server.exited
    rmSync(dir, { recursive: true, force: true })
  })

  it('serves its own metrics to anyone who reaches the port, at /metrics only', async () => {
    expect((await send(port, '/nothing-here')).status).toBe(404)
    const reply = await send(metricsPort, '/metrics')
    expect(reply.status).toBe(200)
    expect(samples(reply.body).get(sample('slink_redirects_total', { outcome: 'not_found' }))).toBe(
      1,
    )
    expect((await send(metricsPort, '/')).status).toBe(404)
    const post = await send(metricsPort, '/metrics', { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe('GET, HEAD')
  })
})
