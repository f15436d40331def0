/**
 * The outbox is written in the change's transaction: a change whose events cannot be written
 * is not made, and a change that fails writes no event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { API } from './helpers.js'

let t: TestApp
let failOutbox = false
beforeAll(async () => {
  t = await createTestApp()
  t.services.events.withinTransaction(async (events) => {
    if (failOutbox && events.some((e) => e.type === 'space.created')) {
      throw new Error('outbox unavailable')
    }
  })
  const hook = await t.call('POST', `${API}/webhooks`, {
    json: { url: 'https://hooks.example.com/x', events: ['*'] },
  })
  expect(hook.statusCode).toBe(201)
})
afterAll(() => t.close())

const outbox = () =>
  t.services.db.kysely.selectFrom('webhook_outbox').select('type').orderBy('id').execute()

describe('the outbox and the change share one transaction', () => {
  it('does not make a change whose events cannot be written', async () => {
    failOutbox = true
    const res = await t.call('POST', `${API}/spaces`, { json: { name: 'Lost' } })
    failOutbox = false
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ message: 'Server Error.', status: 500 })
    const list = await t.call('GET', `${API}/spaces?search=Lost`)
    expect((list.json() as { meta: { total: number } }).meta.total).toBe(0)
    expect(await outbox()).toEqual([])
  })

  it('writes the events of a change with it, and none for a refused one', async () => {
    expect((await t.call('POST', `${API}/spaces`, { json: { name: 'Kept' } })).statusCode).toBe(201)
    const taken = await t.call('POST', `${API}/spaces`, { json: { name: 'Kept' } })
    expect(taken.statusCode).toBe(422)
    expect(await outbox()).toEqual([{ type: 'space.created' }])
  })
})
