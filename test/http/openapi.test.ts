import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'

let t: TestApp
let doc: { openapi: string; paths: Record<string, Record<string, unknown>> }
beforeAll(async () => {
  t = await createTestApp()
  const res = await t.call('GET', '/api/openapi.json', { key: null })
  expect(res.statusCode).toBe(200)
  doc = res.json()
})
afterAll(() => t.close())

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(doc.openapi).toBe('3.1.0')
  })

  it('describes every API route, and nothing the service does not answer', () => {
    const routes = t.app
      .apiRoutes()
      .filter((r) => r.url.startsWith('/api/v1') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`)
      .sort()
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort()
    expect(documented).toEqual(routes)
    expect(routes).toContain('PATCH /api/v1/links/{id}')
    expect(routes).toContain('GET /api/v1/stats/{id}')
    expect(routes).toContain('POST /api/v1/imports')
    expect(routes).toContain('GET /api/v1/links/export')
    expect(routes).toContain('GET /api/v1/tags/{id}/stats')
    expect(routes).toContain('POST /api/v1/links/{id}/duplicate')
    expect(routes).toContain('PATCH /api/v1/utm-templates/{id}')
    expect(routes.length).toBe(55)
  })

  it('documents form, multipart and JSON bodies for every store and update', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(
        ops as Record<string, { requestBody?: { content: object } }>,
      )) {
        if (!['post', 'put', 'patch'].includes(method)) continue
        // Actions that take no input (rotate a secret, send a test, re-send) have no body.
        if (op.requestBody === undefined && /\/(secret|test|resend)$/.test(path)) continue
        expect(Object.keys(op.requestBody!.content).sort(), `${method} ${path}`).toEqual([
          'application/json',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
        ])
      }
    }
  })

  it('serves the interactive docs page and its assets from the service itself', async () => {
    const page = await t.call('GET', '/api/docs', { key: null })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    expect(assets.length).toBeGreaterThan(2)
    for (const asset of assets) {
      expect(asset.startsWith('/api/docs/'), asset).toBe(true)
      const res = await t.call('GET', asset, { key: null })
      expect(res.statusCode, asset).toBe(200)
    }
  })
})
