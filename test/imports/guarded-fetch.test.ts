import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'
import { allowListPolicy, FetchRefused, jsonFetch } from '../../src/imports/fetch.js'
import { sourceApi, type SourceApi } from '../support/source-apis.js'

let api: SourceApi
beforeAll(async () => {
  api = await sourceApi(() => ({ status: 200, body: { ok: true } }))
})
afterAll(async () => {
  await api.close()
})

describe('the outbound client of API imports', () => {
  it('refuses loopback unless IMPORT_ALLOWED_HOSTS names it, and then fetches', async () => {
    const port = new URL(api.url).port
    await expect(jsonFetch({ policy: allowListPolicy([]) })(`${api.url}/x`, {})).rejects.toEqual(
      new FetchRefused(
        '127.0.0.1 is not reachable: private or local address (IMPORT_ALLOWED_HOSTS)',
      ),
    )
    // The refusal says why, never what the name resolved to.
    await expect(
      jsonFetch({ policy: allowListPolicy([]) })(`http://localhost:${port}/x`, {}),
    ).rejects.toEqual(
      new FetchRefused(
        'localhost is not reachable: private or local address (IMPORT_ALLOWED_HOSTS)',
      ),
    )
    expect(api.requests).toEqual([])
    for (const entry of ['127.0.0.1', '127.0.0.0/8', 'localhost']) {
      const host = entry === 'localhost' ? `http://localhost:${port}` : api.url
      expect(await jsonFetch({ policy: allowListPolicy([entry]) })(`${host}/x`, {})).toEqual({
        ok: true,
      })
    }
    expect(api.requests).toEqual(['GET /x', 'GET /x', 'GET /x'])
  })

  it('a connection that fails names the host and the kind of failure, never its address', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()))
    const { port } = closed.address() as AddressInfo
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    await expect(
      jsonFetch({ policy: allowListPolicy(['localhost']) })(`http://localhost:${port}/x`, {}),
    ).rejects.toEqual(new Error('localhost: connection refused'))
  })

  it('IMPORT_ALLOWED_HOSTS is a comma list of hosts, addresses or CIDRs', () => {
    expect(
      loadConfig({ IMPORT_ALLOWED_HOSTS: ' 10.0.0.0/8, shlink.internal ,::1' }).importAllowedHosts,
    ).toEqual(['10.0.0.0/8', 'shlink.internal', '::1'])
    expect(() => loadConfig({ IMPORT_ALLOWED_HOSTS: '10.0.0.0/33' })).toThrow(
      new ConfigError(
        'IMPORT_ALLOWED_HOSTS must be a comma list of hosts, addresses or CIDRs, got "10.0.0.0/33"',
      ),
    )
  })
})
