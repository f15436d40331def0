import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allowListPolicy } from '../../src/outbound/address-policy.js'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { API, BASE, NOT_FOUND, anyTimestamp, validation, type Rec } from './helpers.js'

const FORBIDDEN = 'The url must not point to a private, loopback or link-local address.'
const WEBHOOK_FIELDS = [
  'id',
  'url',
  'events',
  'active',
  'disabled_reason',
  'created_at',
  'updated_at',
]

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({}, { webhookPolicy: allowListPolicy(['10.1.2.3', 'crm.internal']) })
})
afterAll(() => t.close())

async function hook(form: Record<string, string | number> = {}): Promise<Rec> {
  const res = await t.call('POST', `${API}/webhooks`, {
    form: { url: 'https://hooks.example.com/in', 'events[]': 'link.created', ...form },
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { data: Rec }).data
}

describe('webhooks: the five operations', () => {
  it('stores a webhook: HTTP 201, "status":200, the secret shown in this answer only', async () => {
    const res = await t.call('POST', `${API}/webhooks`, {
      json: { url: 'https://hooks.example.com/a', events: ['link.created', 'click.recorded'] },
    })
    expect(res.statusCode).toBe(201)
    const body = res.json() as { data: Rec & { secret: string }; status: number }
    expect(body.status).toBe(200)
    expect(Object.keys(body.data)).toEqual([...WEBHOOK_FIELDS, 'secret'])
    expect(body.data).toEqual({
      id: body.data.id,
      url: 'https://hooks.example.com/a',
      events: ['link.created', 'click.recorded'],
      active: 1,
      disabled_reason: null,
      created_at: anyTimestamp(),
      updated_at: anyTimestamp(),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    })
    expect(Buffer.from(body.data.secret.slice(6), 'base64').length).toBe(32)

    const shown = await t.call('GET', `${API}/webhooks/${body.data.id}`)
    expect(shown.statusCode).toBe(200)
    expect(Object.keys((shown.json() as { data: Rec }).data)).toEqual(WEBHOOK_FIELDS)
    expect(shown.body).not.toContain(body.data.secret)
  })

  it('takes events[] from a form, and * stands for every event', async () => {
    const res = await t.call('POST', `${API}/webhooks`, {
      form: 'url=https%3A%2F%2Fh.example%2F&events[]=*&events[]=link.deleted&active=0',
    })
    expect(res.statusCode).toBe(201)
    const data = (res.json() as { data: Rec }).data
    expect(data.events).toEqual(['*'])
    expect(data.active).toBe(0)
  })

  it('reports every bad field at once', async () => {
    const missing = await t.call('POST', `${API}/webhooks`, { json: {} })
    expect(missing.statusCode).toBe(422)
    expect(missing.json()).toEqual(
      validation({
        url: ['The url field is required.'],
        events: ['The events field is required.'],
      }),
    )
    const bad = await t.call('POST', `${API}/webhooks`, {
      json: { url: 'javascript:alert(1)', events: ['link.created', 'link.exploded'], active: 3 },
    })
    expect(bad.statusCode).toBe(422)
    expect(bad.json()).toEqual(
      validation({
        url: ['The url field must be a valid URL.'],
        'events.1': ['The selected events.1 is invalid.'],
        active: ['The selected active is invalid.'],
      }),
    )
    const none = await t.call('POST', `${API}/webhooks`, {
      json: { url: 'https://h.example/', events: [] },
    })
    expect(none.json()).toEqual(
      validation({ events: ['The events field must have at least 1 items.'] }),
    )
  })

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://127.0.0.1:8080/',
    'http://localhost/',
    'http://app.localhost:3000/x',
    'http://[::1]/',
    'http://10.0.0.7/',
    'http://192.168.1.1/',
    'http://[::ffff:127.0.0.1]/',
  ])('refuses %s with a 422 on url, at create and at update', async (url) => {
    const created = await t.call('POST', `${API}/webhooks`, { json: { url, events: ['*'] } })
    expect(created.statusCode).toBe(422)
    expect(created.json()).toEqual(validation({ url: [FORBIDDEN] }))
    const h = await hook()
    const updated = await t.call('PATCH', `${API}/webhooks/${h.id}`, { json: { url } })
    expect(updated.statusCode).toBe(422)
    expect(updated.json()).toEqual(validation({ url: [FORBIDDEN] }))
  })

  it('accepts the private hosts WEBHOOK_ALLOWED_HOSTS names', async () => {
    for (const url of ['http://10.1.2.3:9000/in', 'http://crm.internal/in']) {
      const res = await t.call('POST', `${API}/webhooks`, { json: { url, events: ['*'] } })
      expect(res.statusCode, url).toBe(201)
    }
  })

  it('updates with PUT and PATCH, leaving absent fields alone', async () => {
    const { secret, ...h } = await hook()
    expect(secret).toMatch(/^whsec_/)
    const res = await t.call('PUT', `${API}/webhooks/${h.id}`, {
      form: { 'events[0]': 'space.created', 'events[1]': 'space.deleted', active: 0 },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      data: {
        ...h,
        events: ['space.created', 'space.deleted'],
        active: 0,
        updated_at: anyTimestamp(),
      },
      status: 200,
    })
  })

  it('rotates the secret: the new one is shown once, and differs', async () => {
    const created = await t.call('POST', `${API}/webhooks`, {
      json: { url: 'https://h.example/', events: ['*'] },
    })
    const first = (created.json() as { data: { id: number; secret: string } }).data
    const rotated = await t.call('POST', `${API}/webhooks/${first.id}/secret`)
    expect(rotated.statusCode).toBe(200)
    const second = (rotated.json() as { data: { secret: string } }).data.secret
    expect(second).toMatch(/^whsec_/)
    expect(second).not.toBe(first.secret)
  })

  it('deletes a webhook', async () => {
    const h = await hook()
    const res = await t.call('DELETE', `${API}/webhooks/${h.id}`)
    expect(res.json()).toEqual({ id: h.id, object: 'webhook', deleted: true, status: 200 })
    expect((await t.call('GET', `${API}/webhooks/${h.id}`)).statusCode).toBe(404)
  })

  it("answers another user's webhook exactly like a missing one", async () => {
    const h = await hook()
    for (const [method, path] of [
      ['GET', `/webhooks/${h.id}`],
      ['PATCH', `/webhooks/${h.id}`],
      ['DELETE', `/webhooks/${h.id}`],
      ['POST', `/webhooks/${h.id}/secret`],
      ['POST', `/webhooks/${h.id}/test`],
      ['GET', `/webhooks/${h.id}/deliveries`],
      ['POST', `/webhooks/${h.id}/deliveries/1/resend`],
      ['GET', `/webhooks/999999/deliveries`],
      ['GET', `/webhooks/abc`],
    ] as const) {
      const res = await t.call(method, `${API}${path}`, {
        key: KEY_B,
        ...(method === 'PATCH' ? { json: { active: 0 } } : {}),
      })
      expect(res.statusCode, `${method} ${path}`).toBe(404)
      expect(res.json()).toEqual(NOT_FOUND)
    }
    const list = await t.call('GET', `${API}/webhooks`, { key: KEY_B })
    expect((list.json() as { meta: { total: number } }).meta.total).toBe(0)
  })

  it('pages the list like every other resource, and refuses bad list parameters', async () => {
    const fresh = await createTestApp()
    try {
      for (let i = 0; i < 12; i++) {
        const res = await fresh.call('POST', `${API}/webhooks`, {
          json: { url: `https://h${i}.example/`, events: ['*'] },
        })
        expect(res.statusCode).toBe(201)
      }
      const res = await fresh.call('GET', `${API}/webhooks?page=2&sort=asc&search=example`)
      const body = res.json() as { data: Rec[]; links: Rec; meta: Rec }
      expect(body.data.map((h) => h.url)).toEqual(['https://h10.example/', 'https://h11.example/'])
      expect(body.meta).toEqual({
        current_page: 2,
        from: 11,
        last_page: 2,
        path: `${BASE}${API}/webhooks`,
        per_page: 10,
        to: 12,
        total: 12,
      })
      expect(body.links.prev).toBe(`${BASE}${API}/webhooks?page=1&sort=asc&search=example`)
      const bad = await fresh.call('GET', `${API}/webhooks?per_page=20&sort=up`)
      expect(bad.statusCode).toBe(422)
      expect(Object.keys((bad.json() as { message: object }).message).sort()).toEqual([
        'per_page',
        'sort',
      ])
    } finally {
      await fresh.close()
    }
  })
})
