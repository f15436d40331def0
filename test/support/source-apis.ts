/**
 * Local servers that answer as other shorteners' APIs do (paged lists under their documented
 * paths, with their authentication headers), for the API import sources.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface SourceApi {
  url: string
  requests: string[]
  close(): Promise<void>
}

type Reply = { status: number; body: unknown }
/** What the API answers (a promise: a slow source, e.g. one page at a time). */
type Answer = (url: URL, request: IncomingMessage) => Reply | Promise<Reply>

export async function sourceApi(answer: Answer): Promise<SourceApi> {
  const requests: string[] = []
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    requests.push(`${request.method} ${url.pathname}${url.search}`)
    void Promise.resolve(answer(url, request)).then(({ status, body }) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

export interface Gate {
  /** Resolves once page `page` has been asked for. */
  asked(page: number): Promise<void>
  /** Answers the pages held so far, and every page asked for after. */
  release(): void
}

/**
 * `answer` with its pages after the first `open` held until `release()`: a source that is still
 * being read for as long as a test needs, and says which page the import has reached.
 */
export function gated(answer: Answer, open: number): { answer: Answer; gate: Gate } {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const seen = new Set<number>()
  const waiting = new Map<number, (() => void)[]>()
  return {
    answer: async (url, request) => {
      const page = Number(url.searchParams.get('page') ?? 1)
      seen.add(page)
      for (const wake of waiting.get(page) ?? []) wake()
      waiting.delete(page)
      if (page > open) await released
      return answer(url, request)
    },
    gate: {
      asked: (page) =>
        seen.has(page)
          ? Promise.resolve()
          : new Promise((resolve) => waiting.set(page, [...(waiting.get(page) ?? []), resolve])),
      release: () => release(),
    },
  }
}

const unauthenticated = { status: 401, body: { message: 'Unauthenticated.' } }

/**
 * phpShort v1: `GET /api/v1/links?page=`, Bearer key. Records carry every field of the
 * contract's link record, in its order (`password` and `privacy_password` say only whether one
 * is set). `links` replaces the default two links, `perPage` of them a page.
 */
export function phpShortApi(key: string, links: object[] = PHPSHORT_LINKS, perPage = 1): Answer {
  return (url, request) => {
    if (request.headers.authorization !== `Bearer ${key}`) return unauthenticated
    if (url.pathname !== '/api/v1/links') return { status: 404, body: {} }
    const page = Number(url.searchParams.get('page') ?? 1)
    return {
      status: 200,
      body: {
        data: links.slice((page - 1) * perPage, page * perPage),
        meta: {
          current_page: page,
          last_page: Math.ceil(links.length / perPage),
          per_page: perPage,
          total: links.length,
        },
        status: 200,
      },
    }
  }
}

const PHPSHORT_TIMES = {
  created_at: '2021-06-01T12:00:00.000000Z',
  updated_at: '2021-06-01T12:00:00.000000Z',
}

export const PHPSHORT_LINKS = [
  {
    id: 11,
    alias: 'promo',
    url: 'https://example.com/promo',
    short_url: 'http://old.example/promo',
    title: 'Promo',
    target_type: 1,
    country_target: [
      { key: 'DE', value: 'https://example.com/de' },
      { key: 'FR', value: 'https://example.com/fr' },
    ],
    platform_target: [{ key: 'iOS', value: 'https://example.com/ios' }],
    language_target: [{ key: 'de', value: 'https://example.com/deutsch' }],
    rotation_target: [{ value: 'https://example.com/r1' }, { value: 'https://example.com/r2' }],
    last_rotation: 1,
    disabled: 0,
    privacy: 2,
    privacy_password: true,
    password: true,
    expiration_url: 'https://example.com/gone',
    expiration_clicks: 100,
    clicks: 31,
    space: { id: 2, name: 'Marketing', color: 3, ...PHPSHORT_TIMES },
    domain: {
      id: 1,
      name: 'old.example',
      url: 'http://old.example',
      index_page: null,
      not_found_page: null,
      global: false,
      ...PHPSHORT_TIMES,
    },
    pixels: [
      { id: 5, name: 'Main FB', type: 'facebook', value: '1234567890', ...PHPSHORT_TIMES },
      { id: 6, name: 'Ads', type: 'google-ads', value: 'AW-42', ...PHPSHORT_TIMES },
    ],
    ends_at: '2030-01-01T00:00:00.000000Z',
    ...PHPSHORT_TIMES,
  },
  {
    id: 12,
    alias: 'guide',
    url: 'https://example.com/docs',
    short_url: 'http://short.test/guide',
    title: null,
    target_type: 0,
    country_target: null,
    platform_target: null,
    language_target: null,
    rotation_target: null,
    last_rotation: null,
    disabled: 1,
    privacy: 1,
    privacy_password: false,
    password: false,
    expiration_url: null,
    expiration_clicks: null,
    clicks: 0,
    space: null,
    domain: {
      id: 3,
      name: 'short.test',
      url: 'http://short.test',
      index_page: null,
      not_found_page: null,
      global: true,
      ...PHPSHORT_TIMES,
    },
    pixels: [{ id: 5, name: 'Main FB', type: 'facebook', value: '1234567890', ...PHPSHORT_TIMES }],
    ends_at: null,
    created_at: '2021-06-02T12:00:00.000000Z',
    updated_at: '2021-06-02T12:00:00.000000Z',
  },
]

/** Shlink REST v3: `GET /rest/v3/short-urls?page=`, `X-Api-Key`, two pages. */
export function shlinkApi(key: string): Answer {
  const items = [
    {
      shortCode: 'abc123',
      shortUrl: 'https://s.example/abc123',
      longUrl: 'https://example.com/shlink-one',
      dateCreated: '2022-02-02T10:00:00+01:00',
      visitsSummary: { total: 40, nonBots: 38, bots: 2 },
      tags: ['one'],
      meta: { validSince: null, validUntil: null, maxVisits: 50 },
      domain: null,
      title: 'Shlink one',
      crawlable: false,
      forwardQuery: true,
    },
    {
      shortCode: 'custom',
      shortUrl: 'https://other.example/custom',
      longUrl: 'https://example.com/shlink-two',
      dateCreated: '2022-02-03T10:00:00+00:00',
      visitsSummary: { total: 1, nonBots: 1, bots: 0 },
      tags: [],
      meta: { validSince: null, validUntil: '2031-01-01T00:00:00+00:00', maxVisits: null },
      domain: 'other.example',
      title: null,
      crawlable: false,
      forwardQuery: true,
    },
  ]
  return (url, request) => {
    if (request.headers['x-api-key'] !== key) return unauthenticated
    if (url.pathname !== '/rest/v3/short-urls') return { status: 404, body: {} }
    const page = Number(url.searchParams.get('page') ?? 1)
    return {
      status: 200,
      body: {
        shortUrls: {
          data: items.slice(page - 1, page),
          pagination: {
            currentPage: page,
            pagesCount: 2,
            itemsPerPage: 1,
            itemsInCurrentPage: 1,
            totalItems: 2,
          },
        },
      },
    }
  }
}

/** Kutt v2: `GET /api/v2/links?skip=&limit=`, `X-API-KEY`. */
export function kuttApi(key: string): Answer {
  const items = [
    {
      id: '6f8a1c1e-0000-4000-8000-000000000001',
      address: 'kutt1',
      banned: false,
      created_at: '2023-03-03T03:03:03.000Z',
      updated_at: '2023-03-03T03:03:03.000Z',
      description: 'Kutt one',
      expire_in: null,
      target: 'https://example.com/kutt-one',
      password: false,
      visit_count: 9,
      link: 'https://kutt.it/kutt1',
    },
  ]
  return (url, request) => {
    if (request.headers['x-api-key'] !== key) return unauthenticated
    if (url.pathname !== '/api/v2/links') return { status: 404, body: {} }
    const skip = Number(url.searchParams.get('skip') ?? 0)
    const limit = Number(url.searchParams.get('limit') ?? 10)
    return {
      status: 200,
      body: { limit, skip, total: items.length, data: items.slice(skip, skip + limit) },
    }
  }
}
