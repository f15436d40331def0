/**
 * Shared expectations for the HTTP contract tests: the record field orders of the contract,
 * the error bodies it fixes word for word, builders for expected records, and small request
 * helpers (creating resources, hand-built multipart bodies, direct database tweaks).
 */
import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { CallOptions, TestApp } from '../support/app.js'

/** UTC ISO-8601 with microseconds: `2026-05-01T10:00:00.000000Z`. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
export const anyTimestamp = (): unknown => expect.stringMatching(TIMESTAMP)

/** Six characters from the alphabet without look-alikes (no 0/O/o, 1/l/I). */
export const RANDOM_ALIAS = /^[2-9a-km-zA-HJ-NP-Z]{6}$/

export const LINK_FIELDS = [
  'id',
  'alias',
  'url',
  'short_url',
  'title',
  'target_type',
  'country_target',
  'platform_target',
  'language_target',
  'rotation_target',
  'last_rotation',
  'rules',
  'disabled',
  'privacy',
  'privacy_password',
  'password',
  'expiration_url',
  'expiration_clicks',
  'clicks',
  'space',
  'domain',
  'pixels',
  'tags',
  'ends_at',
  'created_at',
  'updated_at',
  'og_title',
  'og_description',
  'og_image',
]
export const PIXEL_FIELDS = ['id', 'name', 'type', 'value', 'created_at', 'updated_at']
export const SPACE_FIELDS = ['id', 'name', 'color', 'created_at', 'updated_at']
export const DOMAIN_FIELDS = [
  'id',
  'name',
  'url',
  'index_page',
  'not_found_page',
  'global',
  'created_at',
  'updated_at',
]
export const LIST_KEYS = ['data', 'links', 'meta', 'status']
export const PAGE_LINK_KEYS = ['first', 'last', 'prev', 'next']
export const PAGE_META_KEYS = [
  'current_page',
  'from',
  'last_page',
  'path',
  'per_page',
  'to',
  'total',
]

export const NOT_FOUND = { message: 'Resource not found.', status: 404 }
export const FORBIDDEN = { message: "You don't have access to this feature.", status: 403 }
export const UNAUTHENTICATED = { message: 'Unauthenticated.', status: 401 }
export const TOO_MANY = { message: 'Too Many Attempts.', status: 429 }
export const METHOD_NOT_ALLOWED = { message: 'Method Not Allowed.', status: 405 }

export const API = '/api/v1'
export const BASE = 'http://short.test'

/** A record as the API returns it (`id` always present). */
export type Rec = Record<string, unknown> & { id: number }

export function validation(message: Record<string, unknown[]>) {
  return { message, status: 422 }
}

/** Fails with the body in the message when the status is not the expected one. */
export function expectStatus(res: LightMyRequestResponse, status: number): void {
  expect(res.statusCode, `${res.statusCode} ${res.body.slice(0, 2000)}`).toBe(status)
}

export function jsonContentType(res: LightMyRequestResponse): void {
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
}

async function store(
  t: TestApp,
  path: string,
  form: CallOptions['form'],
  key?: string,
): Promise<Rec> {
  const res = await t.call('POST', `${API}/${path}`, { form, ...(key ? { key } : {}) })
  expectStatus(res, 201)
  return (res.json() as { data: Rec }).data
}

export function createLink(t: TestApp, form: CallOptions['form'], key?: string): Promise<Rec> {
  const body =
    typeof form === 'string' || form === undefined
      ? form
      : { url: 'https://example.com/landing', domain_id: t.defaultDomainId, ...form }
  return store(t, 'links', body, key)
}

export function createPixel(
  t: TestApp,
  form: Record<string, string | number>,
  key?: string,
): Promise<Rec> {
  return store(t, 'pixels', { type: 'facebook', value: '1234567890', ...form }, key)
}

export function createSpace(
  t: TestApp,
  form: Record<string, string | number>,
  key?: string,
): Promise<Rec> {
  return store(t, 'spaces', form, key)
}

export function createDomain(
  t: TestApp,
  form: Record<string, string | number>,
  key?: string,
): Promise<Rec> {
  return store(t, 'domains', form, key)
}

export async function show(t: TestApp, path: string, key?: string): Promise<Rec> {
  const res = await t.call('GET', `${API}/${path}`, key ? { key } : {})
  expectStatus(res, 200)
  return (res.json() as { data: Rec }).data
}

export async function listIds(t: TestApp, query: string, key?: string): Promise<number[]> {
  const res = await t.call('GET', `${API}/${query}`, key ? { key } : {})
  expectStatus(res, 200)
  return (res.json() as { data: Rec[] }).data.map((r) => r.id)
}

/** The global default domain as every record embeds it. */
export function defaultDomain(t: TestApp) {
  return {
    id: t.defaultDomainId,
    name: 'short.test',
    url: BASE,
    index_page: null,
    not_found_page: null,
    global: true,
    created_at: anyTimestamp(),
    updated_at: anyTimestamp(),
  }
}

/** A link record with the defaults of a link created with only `url` and `domain_id`. */
export function linkRecord(t: TestApp, alias: unknown, over: Record<string, unknown> = {}) {
  return {
    id: expect.any(Number),
    alias,
    url: 'https://example.com/landing',
    short_url: typeof alias === 'string' ? `${BASE}/${alias}` : expect.any(String),
    title: null,
    target_type: 0,
    country_target: null,
    platform_target: null,
    language_target: null,
    rotation_target: null,
    last_rotation: null,
    rules: [],
    disabled: 0,
    privacy: 0,
    privacy_password: false,
    password: false,
    expiration_url: null,
    expiration_clicks: null,
    clicks: 0,
    space: null,
    domain: defaultDomain(t),
    pixels: [],
    tags: [],
    ends_at: null,
    created_at: anyTimestamp(),
    updated_at: anyTimestamp(),
    og_title: null,
    og_description: null,
    og_image: null,
    ...over,
  }
}

/** A `multipart/form-data` body built by hand (CRLF line ends, one part a field). */
export function multipart(
  fields: [string, string][],
  files: { name: string; filename: string; type: string; content: string }[] = [],
  boundary = '----slinkTestBoundary7MA4YWxkTrZu0gW',
): { payload: string; contentType: string } {
  let payload = ''
  for (const [name, value] of fields) {
    payload += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
  }
  for (const file of files) {
    payload +=
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; ` +
      `filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n${file.content}\r\n`
  }
  payload += `--${boundary}--\r\n`
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` }
}

/** Sets a link's click count directly (no redirect needed). */
export async function setClicks(t: TestApp, linkId: number, clicks: number): Promise<void> {
  await t.services.db.kysely.updateTable('links').set({ clicks }).where('id', '=', linkId).execute()
}

export async function countRows(
  t: TestApp,
  table: 'links' | 'pixels' | 'spaces' | 'domains' | 'link_pixels',
): Promise<number> {
  const row = await t.services.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
