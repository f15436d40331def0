/**
 * The served app hands each answer to the kernel as it is ended: seen at that moment
 * ('prefinish', emitted inside end()), no byte of it is left waiting in the socket.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { KEY_A, createTestApp, type TestApp } from '../support/app.js'
import { send } from '../support/server.js'
import { API, createLink } from './helpers.js'

let t: TestApp | null = null

afterEach(async () => {
  await t?.close()
  t = null
})

/** Serves the app and notes, for each answer ended, whether its bytes were still waiting. */
async function serveNoting(env: Record<string, string>) {
  t = await createTestApp(env)
  const app = t
  await app.app.listen({ port: 0, host: '127.0.0.1' })
  const waiting: Record<string, boolean> = {}
  app.app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    response.once('prefinish', () => {
      waiting[request.url ?? ''] = (response.socket?.writableLength ?? 0) > 0
    })
  })
  const port = (app.app.server.address() as { port: number }).port
  const link = await createLink(app, { alias: 'at-once' })
  const get = async (path: string) => {
    const answer = await send(port, path, { headers: { authorization: `Bearer ${KEY_A}` } })
    expect(answer.status).toBe(200)
    return answer
  }
  return { get, waiting, id: link.id as number }
}

describe('answers sent as they are ended', () => {
  it('leaves no byte of a show or a list waiting in the socket', async () => {
    const { get, waiting, id } = await serveNoting({})
    const shown = await get(`${API}/links/${id}`)
    const listed = await get(`${API}/links?per_page=10`)
    expect(JSON.parse(shown.body).data.alias).toBe('at-once')
    expect(JSON.parse(listed.body).data.map((l: { alias: string }) => l.alias)).toEqual(['at-once'])
    expect(waiting).toEqual({
      [`${API}/links/${id}`]: false,
      [`${API}/links?per_page=10`]: false,
    })
  })
})
