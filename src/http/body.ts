/**
 * Request bodies: form-urlencoded with bracket nesting (qs), JSON, and multipart/form-data
 * (its fields go through the same bracket parser). Every body is then normalised the same
 * way: empty strings become null (an "empty value"), null items leave arrays, and lists sent
 * as `{ "0": …, "1": … }` become arrays.
 */
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import qs from 'qs'
import { AppError } from '../shared/errors.js'

export const BODY_LIMIT = 1024 * 1024
const MAX_FIELDS = 2000
const MAX_DEPTH = 5

/**
 * The query string of every request, parsed like a form body (bracket nesting, so that
 * `search[]=x` is a list and reported as such), never throwing: past the limits the rest is
 * left as flat keys or dropped, which validation then reports or ignores.
 */
export function parseQuery(text: string): Record<string, unknown> {
  return qs.parse(text, {
    arrayLimit: 100,
    depth: MAX_DEPTH,
    parameterLimit: MAX_FIELDS,
    allowPrototypes: false,
    plainObjects: false,
  })
}

function parseForm(text: string): Record<string, unknown> {
  let fields = 0
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) fields++
  if (fields >= MAX_FIELDS) throw new AppError(413, 'Payload Too Large.')
  return qs.parse(text, {
    arrayLimit: 100,
    depth: MAX_DEPTH,
    parameterLimit: MAX_FIELDS,
    allowPrototypes: false,
    plainObjects: false,
    strictDepth: true,
  })
}

function parseMultipart(
  request: FastifyRequest,
  payload: Buffer,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const pairs: string[] = []
    let parser: BusboyInstance
    try {
      parser = Busboy({
        headers: request.headers as BusboyHeaders,
        limits: { fields: MAX_FIELDS, fieldSize: BODY_LIMIT, files: 0, parts: MAX_FIELDS },
      })
    } catch {
      reject(new AppError(400, 'Malformed request body.'))
      return
    }
    parser.on('field', (name: string, value: string) => {
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    })
    parser.on('file', (_name: string, stream: NodeJS.ReadableStream) => stream.resume())
    parser.on('fieldsLimit', () => reject(new AppError(413, 'Payload Too Large.')))
    parser.on('partsLimit', () => reject(new AppError(413, 'Payload Too Large.')))
    parser.on('error', () => reject(new AppError(400, 'Malformed request body.')))
    parser.on('finish', () => {
      try {
        resolve(parseForm(pairs.join('&')))
      } catch (error) {
        reject(error)
      }
    })
    parser.end(payload)
  })
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isIndexObject(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value)
  return keys.length > 0 && keys.every((k) => /^\d{1,6}$/.test(k))
}

const MAX_JSON_DEPTH = 16

export function normalise(value: unknown, depth = 0): unknown {
  if (value === '') return null
  if (typeof value !== 'object' || value === null) return value
  if (depth >= MAX_JSON_DEPTH) throw new AppError(400, 'The request body is nested too deeply.')
  const items = Array.isArray(value)
    ? value
    : isIndexObject(value as Record<string, unknown>)
      ? Object.entries(value as Record<string, unknown>)
          .sort(([a], [b]) => Number(a) - Number(b))
          .map(([, item]) => item)
      : null
  if (items) {
    return items
      .map((item) => normalise(item, depth + 1))
      .filter((v) => v !== null && v !== undefined)
  }
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) out[key] = normalise(item, depth + 1)
  return out
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => {
      try {
        done(null, parseForm(body as string))
      } catch (error) {
        done(error instanceof AppError ? error : new AppError(400, 'Malformed request body.'))
      }
    },
  )
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT },
    (request, body, done) => {
      parseMultipart(request, body as Buffer).then(
        (parsed) => done(null, parsed),
        (error: Error) => done(error),
      )
    },
  )

  // Fastify reads text/plain by default; the API takes only the three encodings above.
  app.removeContentTypeParser('text/plain')

  // A request without a body has none, whatever its Content-Type says (a DELETE sent with
  // `Content-Type: application/json` and nothing after it is a plain delete).
  app.addHook('onRequest', async (request) => {
    if (!hasBody(request.headers)) delete request.headers['content-type']
  })

  // Every route with a body sees a normalised plain object (no body at all counts as empty),
  // with the query string's parameters under the body's, as phpShort's framework merges them.
  app.addHook('preValidation', async (request) => {
    if (!['POST', 'PUT', 'PATCH'].includes(request.method)) return
    const body = request.body === undefined ? {} : request.body
    if (!isPlainObject(body)) throw new AppError(400, 'The request body must be an object.')
    const query = queryOf(request.url)
    request.body = normalise(query === null ? body : { ...query, ...body })
  })
}

/** Whether a request carries a body: a Transfer-Encoding, or a Content-Length above 0. */
export function hasBody(headers: FastifyRequest['headers']): boolean {
  if (headers['transfer-encoding'] !== undefined) return true
  const length = headers['content-length']
  return length !== undefined && length !== '0'
}

/** The query string's parameters, parsed like a form body (bracket nesting); null if none. */
function queryOf(url: string): Record<string, unknown> | null {
  const start = url.indexOf('?')
  if (start === -1 || start === url.length - 1) return null
  try {
    return parseForm(url.slice(start + 1))
  } catch (error) {
    throw error instanceof AppError ? error : new AppError(400, 'Malformed query string.')
  }
}
