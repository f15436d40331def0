/**
 * `GET /api/v1/links/{id}/qr`: the QR code of the short URL as SVG or PNG, decoded back in the
 * test; sizes and their bounds; the API's 401, 404 and 422.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { decodePng, decodeSvg } from '../support/qr.js'
import { API, createLink, expectStatus, NOT_FOUND, UNAUTHENTICATED, validation } from './helpers.js'

let t: TestApp
let link: number
let bobs: number

beforeAll(async () => {
  t = await createTestApp()
  link = (await createLink(t, { alias: 'poster-2026', url: 'https://example.com/spring' })).id
  bobs = (await createLink(t, { alias: 'bobs', url: 'https://example.com/' }, KEY_B)).id
})
afterAll(() => t.close())

const qr = (query: string, key?: string | null) =>
  t.call('GET', `${API}/links/${link}/qr${query}`, key === undefined ? {} : { key })

describe('GET /api/v1/links/{id}/qr', () => {
  it('answers an SVG by default, 256 pixels, that decodes to the short URL with qr=1', async () => {
    const res = await qr('')
    expectStatus(res, 200)
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(res.headers['content-disposition']).toBe('inline; filename="qr-poster-2026.svg"')
    expect(res.body).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="256" height="256" /,
    )
    expect(decodeSvg(res.body)).toBe('http://short.test/poster-2026?qr=1')
  })

  it('answers a PNG of the size asked for that decodes to the short URL with qr=1', async () => {
    for (const size of [128, 300, 1024]) {
      const res = await qr(`?format=png&size=${size}`)
      expectStatus(res, 200)
      expect(res.headers['content-type']).toBe('image/png')
      expect(res.headers['content-disposition']).toBe('inline; filename="qr-poster-2026.png"')
      expect(decodePng(res.rawPayload)).toEqual({
        text: 'http://short.test/poster-2026?qr=1',
        width: size,
        height: size,
      })
    }
  })

  it('draws the smallest and the largest SVG sizes', async () => {
    for (const size of [64, 1024]) {
      const res = await qr(`?format=svg&size=${size}`)
      expectStatus(res, 200)
      expect(res.body).toContain(`width="${size}" height="${size}"`)
      expect(decodeSvg(res.body)).toBe('http://short.test/poster-2026?qr=1')
    }
  })

  it.each([
    ['?format=gif', { format: ['The selected format is invalid.'] }],
    ['?size=63', { size: ['The size field must be at least 64.'] }],
    ['?size=1025', { size: ['The size field must not be greater than 1024.'] }],
    ['?format=png&size=2048', { size: ['The size field must not be greater than 1024.'] }],
    [
      '?size=big&format=jpg',
      {
        format: ['The selected format is invalid.'],
        size: ['The size field must be an integer.'],
      },
    ],
  ])('refuses %s with the 422 naming each bad parameter', async (query, messages) => {
    const res = await qr(query)
    expectStatus(res, 422)
    expect(res.json()).toEqual(validation(messages))
  })

  it('is a 404 for another user’s link, a missing one or a malformed id, before the parameters', async () => {
    for (const path of [`/links/${bobs}/qr?size=1`, '/links/999999/qr', '/links/abc/qr']) {
      const res = await t.call('GET', `${API}${path}`)
      expectStatus(res, 404)
      expect(res.json()).toEqual(NOT_FOUND)
    }
    const own = await t.call('GET', `${API}/links/${bobs}/qr?format=png`, { key: KEY_B })
    expectStatus(own, 200)
    expect(decodePng(own.rawPayload).text).toBe('http://short.test/bobs?qr=1')
  })

  it('is a 401 without an API key', async () => {
    const res = await qr('', null)
    expectStatus(res, 401)
    expect(res.json()).toEqual(UNAUTHENTICATED)
  })
})
