/**
 * The dashboard's Webhooks screens, on the service the API uses: a webhook made with an events
 * picker (the secret shown on the answer page only), the API's messages for a bad form, a test
 * event in the delivery log with a button to send it again, the reason a webhook is off, and
 * another user's webhook a dashboard 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { csrfOf, FormClient } from '../support/dashboard.js'
import { API, expectStatus } from './helpers.js'

describe('dashboard webhooks', () => {
  let t: TestApp
  let alice: FormClient
  let hookId = 0

  beforeAll(async () => {
    t = await createTestApp()
    await t.services.accounts.setPassword(t.userA, 'alice password')
    alice = new FormClient(t.app)
    expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
  })
  afterAll(() => t.close())

  const token = async () => csrfOf((await alice.get('/dashboard/webhooks')).body)

  it('lists none at first, in the navigation', async () => {
    const res = await alice.get('/dashboard/webhooks')
    expectStatus(res, 200)
    expect(res.body).toContain(
      '<a href="/dashboard/webhooks" aria-current="page" id="nav-webhooks">',
    )
    expect(res.body).toContain('<p id="no-hooks">')
    expect(res.body).toContain(
      '<input type="checkbox" id="event-link-created" name="events[]" value="link.created"/>',
    )
  })

  it('refuses a bad form with the API’s messages, keeping the choices', async () => {
    const res = await alice.post(
      '/dashboard/webhooks',
      `_csrf=${encodeURIComponent(await token())}&url=not-a-url&events[]=link.created`,
    )
    expectStatus(res, 422)
    expect(res.body).toContain(
      '<p class="field-error" id="url-error">The url field must be a valid URL.</p>',
    )
    expect(res.body).toContain('value="link.created" checked')
    const none = await alice.post(
      '/dashboard/webhooks',
      `_csrf=${encodeURIComponent(await token())}&url=${encodeURIComponent('https://hooks.example/in')}`,
    )
    expectStatus(none, 422)
    expect(none.body).toContain('id="events-error">The events field is required.</p>')
  })

  it('adds one with chosen events and shows its secret this once', async () => {
    const res = await alice.post(
      '/dashboard/webhooks',
      `_csrf=${encodeURIComponent(await token())}&url=${encodeURIComponent('https://hooks.example/in')}&events[]=link.created&events[]=link.deleted`,
    )
    expectStatus(res, 201)
    const secret = /id="webhook-secret" class="key" readonly value="(whsec_[^"]+)"/.exec(
      res.body,
    )?.[1]
    expect(secret).toBeDefined()
    const api = (await t.call('GET', `${API}/webhooks`)).json() as {
      data: { id: number; url: string; events: string[] }[]
    }
    expect(api.data).toEqual([
      expect.objectContaining({
        url: 'https://hooks.example/in',
        events: ['link.created', 'link.deleted'],
      }),
    ])
    hookId = api.data[0]!.id
    const list = await alice.get('/dashboard/webhooks')
    expect(list.body).toContain(
      `<a href="/dashboard/webhooks/${hookId}">https://hooks.example/in</a>`,
    )
    expect(list.body).toContain('link.created, link.deleted')
    expect(list.body).not.toContain(secret!)
    expect((await alice.get(`/dashboard/webhooks/${hookId}`)).body).not.toContain(secret!)
  })

  it('sends a test event, shows it in the log, and sends it again', async () => {
    const page = await alice.get(`/dashboard/webhooks/${hookId}`)
    expect(page.body).toContain('<p id="no-deliveries">Nothing sent yet.</p>')
    const test = await alice.post(`/dashboard/webhooks/${hookId}/test`, {
      _csrf: csrfOf(page.body),
    })
    expectStatus(test, 303)
    expect(test.headers.location).toBe(`/dashboard/webhooks/${hookId}?tested`)
    const logged = await alice.get(test.headers.location as string)
    expect(logged.body).toContain('A test event was queued')
    const delivery = /<tr id="delivery-(\d+)"><td>webhook\.test/.exec(logged.body)?.[1]
    expect(delivery).toBeDefined()
    expect(logged.body).toContain('<span class="badge status-disabled">pending</span>')
    const again = await alice.post(`/dashboard/webhooks/${hookId}/deliveries/${delivery}/resend`, {
      _csrf: csrfOf(logged.body),
    })
    expectStatus(again, 303)
    expect(again.headers.location).toBe(`/dashboard/webhooks/${hookId}?resent`)
  })

  it('says why the service switched a webhook off', async () => {
    await t.services.db.kysely
      .updateTable('webhooks')
      .set({ active: 0, disabled_reason: 'Switched off after 5 days of failed deliveries.' })
      .where('id', '=', hookId)
      .execute()
    for (const path of ['/dashboard/webhooks', `/dashboard/webhooks/${hookId}`]) {
      const res = await alice.get(path)
      expect(res.body).toContain(
        '<span class="badge status-disabled">Off</span><span class="hook-reason"> Switched off after 5 days of failed deliveries.</span>',
      )
    }
  })

  it('answers another user’s webhook with the dashboard’s 404 page', async () => {
    const bobs = await t.call('POST', `${API}/webhooks`, {
      key: KEY_B,
      json: { url: 'https://bob.example/in', events: ['*'] },
    })
    const id = (bobs.json() as { data: { id: number } }).data.id
    const res = await alice.get(`/dashboard/webhooks/${id}`)
    expectStatus(res, 404)
    expect(res.body).toContain(
      '<a href="/dashboard/webhooks" id="not-found-back">Back to Webhooks</a>',
    )
    const test = await alice.post(`/dashboard/webhooks/${id}/test`, { _csrf: await token() })
    expectStatus(test, 404)
  })
})
