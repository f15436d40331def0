import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import {
  allowListPolicy,
  isAllowListEntry,
  namesForbiddenAddress,
  PUBLIC_ONLY,
} from '../../src/outbound/address-policy.js'
import { outboundRequest, OutboundRefused } from '../../src/outbound/request.js'

describe('the outbound address policy', () => {
  it.each([
    ['http://169.254.169.254/', true],
    ['http://127.0.0.1:8080/', true],
    ['http://localhost/', true],
    ['http://LOCALHOST./', true],
    ['http://[::1]/', true],
    ['http://[fe80::1]/', true],
    ['http://[::ffff:10.0.0.1]/', true],
    ['http://100.64.0.1/', true],
    ['http://0.0.0.0/', true],
    ['http://93.184.215.14/', false],
    ['https://hooks.example.com/', false],
  ])('%s names a forbidden address: %s', (url, forbidden) => {
    expect(namesForbiddenAddress(new URL(url), PUBLIC_ONLY)).toBe(forbidden)
  })

  it('lets named hosts, addresses and networks through, and nothing else private', () => {
    const policy = allowListPolicy(['crm.internal', '10.0.0.5', '172.20.0.0/16', 'fd00::/8'])
    expect(policy.allows('crm.internal', '10.9.9.9')).toBe(true)
    expect(policy.allows('CRM.internal.', '10.9.9.9')).toBe(true)
    expect(policy.allows('other.internal', '10.0.0.5')).toBe(true)
    expect(policy.allows('other.internal', '10.0.0.6')).toBe(false)
    expect(policy.allows('x', '172.20.3.4')).toBe(true)
    expect(policy.allows('x', '::ffff:172.20.3.4')).toBe(true)
    expect(policy.allows('x', '172.21.0.1')).toBe(false)
    expect(policy.allows('x', 'fd12::1')).toBe(true)
    expect(policy.allows('x', '127.0.0.1')).toBe(false)
    expect(policy.allows('x', '93.184.215.14')).toBe(true)
  })

  it('reads WEBHOOK_ALLOWED_HOSTS, refusing a bad entry with a message naming the variable', () => {
    expect(
      loadConfig({ WEBHOOK_ALLOWED_HOSTS: ' crm.internal, 10.0.0.0/8 ,::1' }).webhookAllowedHosts,
    ).toEqual(['crm.internal', '10.0.0.0/8', '::1'])
    expect(loadConfig({}).webhookAllowedHosts).toEqual([])
    for (const bad of ['10.0.0.0/33', 'http://crm', 'a b', '10.0.0.0/8/1', ',']) {
      expect(isAllowListEntry(bad.split(',')[0]!.trim()) && bad !== ',').toBe(false)
      expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: bad })).toThrow(
        /^WEBHOOK_ALLOWED_HOSTS must be/,
      )
    }
  })

  it('refuses a host name that resolves to a forbidden address, before connecting', async () => {
    await expect(
      outboundRequest('http://localhost:9/', { method: 'POST', body: '{}' }),
    ).rejects.toThrow(OutboundRefused)
    await expect(outboundRequest('ftp://example.com/')).rejects.toThrow(OutboundRefused)
  })
})
