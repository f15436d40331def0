/**
 * The one place that turns errors into responses: typed service errors, schema failures,
 * body-parser failures and anything unexpected (a bare "Server Error.", logged, never leaked).
 */
import type { ServerResponse } from 'node:http'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { isDatabaseUnavailable } from '../db/errors.js'
import { errorPage, notFoundPage } from '../pages/index.js'
import {
  AppError,
  NotFoundError,
  TooManyAttemptsError,
  UnauthenticatedError,
  ValidationError,
  type FieldMessages,
} from '../shared/errors.js'
import { clientFieldName } from './aliases.js'
import { collectIssues, type SchemaIssue } from './validation.js'

const PARSER_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported Media Type.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Payload Too Large.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Malformed request body.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Malformed request body.'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Malformed request body.'],
  FST_ERR_CTP_EMPTY_TYPE: [415, 'Unsupported Media Type.'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'Unsupported Media Type.'],
}

const GENERIC: Record<number, string> = {
  400: 'Bad Request.',
  404: 'Resource not found.',
  405: 'Method Not Allowed.',
  413: 'Payload Too Large.',
  414: 'URI Too Long.',
  415: 'Unsupported Media Type.',
  429: 'Too Many Attempts.',
  431: 'Request Header Fields Too Large.',
}

/** The most fields a 422 answer names: the first ones checked (lists are bounded before). */
export const MAX_REPORTED_FIELDS = 100

function firstFields(fields: FieldMessages): FieldMessages {
  const names = Object.keys(fields)
  if (names.length <= MAX_REPORTED_FIELDS) return fields
  return Object.fromEntries(names.slice(0, MAX_REPORTED_FIELDS).map((f) => [f, fields[f]!]))
}

/** Maps any error to the status and JSON body the contract promises. */
export function toResponse(error: unknown): { status: number; body: Record<string, unknown> } {
  if (error instanceof ValidationError) {
    return { status: 422, body: { message: firstFields(error.fields), status: 422 } }
  }
  if (error instanceof AppError) {
    return { status: error.status, body: { message: error.message, status: error.status } }
  }
  const fastifyError = error as Partial<FastifyError> & { validationContext?: string }
  if (fastifyError.validation) {
    if (fastifyError.validationContext === 'params') return toResponse(new NotFoundError())
    const fields = collectIssues(fastifyError.validation as unknown as SchemaIssue[])
    return toResponse(new ValidationError(fields.messages))
  }
  const known = fastifyError.code ? PARSER_ERRORS[fastifyError.code] : undefined
  if (known) return { status: known[0], body: { message: known[1], status: known[0] } }
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_PROTO_POISONING') {
    return { status: 400, body: { message: 'Malformed request body.', status: 400 } }
  }
  if (isDatabaseUnavailable(error)) {
    return { status: 503, body: { message: 'Service Unavailable.', status: 503 } }
  }
  const status = fastifyError.statusCode
  if (status && status >= 400 && status < 500) {
    return { status, body: { message: GENERIC[status] ?? 'Bad Request.', status } }
  }
  return { status: 500, body: { message: 'Server Error.', status: 500 } }
}

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')
}

/** API paths answer JSON; visitor-facing paths answer an HTML page with the same status. */
export function sendError(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const { status, body } = toResponse(error)
  if (status === 422 && request.aliasedFields) body.message = namedAsSent(body.message, request)
  if (status === 503) reply.header('Retry-After', '5')
  if (status >= 500) request.log.error({ err: error }, 'request failed')
  if (error instanceof UnauthenticatedError) reply.header('WWW-Authenticate', 'Bearer')
  if (error instanceof TooManyAttemptsError) {
    reply.header('Retry-After', String(error.retryAfterSeconds))
  }
  if (!isApiPath(request.url)) {
    const page = status === 404 ? notFoundPage() : errorPage(status)
    return reply.code(status).headers(page.headers).send(page.html)
  }
  return reply.code(status).type('application/json; charset=utf-8').send(body)
}

/** The field messages of `error`, naming each field as the client sent it (see http/aliases.ts). */
function namedAsSent(messages: unknown, request: FastifyRequest): FieldMessages {
  const fields: FieldMessages = {}
  for (const [field, list] of Object.entries(messages as FieldMessages)) {
    const sent = clientFieldName(request, field)
    const [ours, theirs] = [field.split('.')[0]!, sent.split('.')[0]!].map((f) =>
      f.replace(/_/g, ' '),
    )
    fields[sent] = list.map((m) => (sent === field ? m : m.replace(ours!, theirs!)))
  }
  return fields
}

/** The same answers for the few failures the router reports before there is a reply object. */
export function sendRawError(response: ServerResponse, url: string, status: number): void {
  if (isApiPath(url)) {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
    response.end(JSON.stringify({ message: GENERIC[status] ?? 'Bad Request.', status }))
    return
  }
  const page = errorPage(status)
  response.writeHead(status, page.headers)
  response.end(page.html)
}
