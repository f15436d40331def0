/**
 * A small browser stand-in for the dashboard's HTTP tests: it keeps cookies (honouring
 * `Max-Age=0`), sends `Host: short.test` and a client address, and reads a form's CSRF token.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { formBody } from './app.js'

export class FormClient {
  readonly cookies = new Map<string, string>()

  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '192.0.2.10',
    private readonly host = 'short.test',
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  private keep(res: LightMyRequestResponse): LightMyRequestResponse {
    const header = res.headers['set-cookie']
    const lines = header === undefined ? [] : Array.isArray(header) ? header : [header]
    for (const line of lines) {
      const [pair = ''] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq)
      if (/;\s*Max-Age=0(;|$)/.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, pair.slice(eq + 1))
    }
    return res
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    const cookie = this.cookieHeader()
    return this.keep(
      await this.app.inject({
        method: 'GET',
        url,
        remoteAddress: this.ip,
        headers: { host: this.host, ...(cookie ? { cookie } : {}) },
      }),
    )
  }

  /** `form`: fields, or an encoded body (for repeated names such as `ids[]`). */
  async post(url: string, form: Record<string, string> | string): Promise<LightMyRequestResponse> {
    const cookie = this.cookieHeader()
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url,
        remoteAddress: this.ip,
        headers: {
          host: this.host,
          'content-type': 'application/x-www-form-urlencoded',
          ...(cookie ? { cookie } : {}),
        },
        payload: formBody(form),
      }),
    )
  }

  /** Opens the page and submits its form (with its CSRF token) with these fields. */
  async submit(
    pageUrl: string,
    action: string,
    form: Record<string, string>,
  ): Promise<LightMyRequestResponse> {
    const page = await this.get(pageUrl)
    return this.post(action, { _csrf: csrfOf(page.body), ...form })
  }

  signIn(email: string, password: string): Promise<LightMyRequestResponse> {
    return this.submit('/login', '/login', { email, password })
  }
}

/** The CSRF token of the first form on the page. */
export function csrfOf(html: string): string {
  const found = /name="_csrf" value="([^"]+)"/.exec(html)
  if (!found) throw new Error(`no CSRF field in ${html.slice(0, 500)}`)
  return found[1]!
}

/** The page with its per-render nonce blanked, to compare two renders. */
export function withoutNonce(html: string): string {
  return html.replace(/nonce="[^"]+"/g, 'nonce=""')
}

/** An encoded form body from pairs (names may repeat: `ids[]`, `pixel_ids[]`). */
export function formPairs(pairs: [string, string | number][]): string {
  return pairs
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&')
}
