/**
 * The multipart body of the import routes (`POST /api/v1/imports`, the dashboard's form): its
 * fields as a form, and its one file part written to a temporary file as it arrives (never held
 * in memory), up to UPLOAD_LIMIT; past it the request is a 413. Only these routes read files:
 * everywhere else file parts are ignored.
 *
 * The caller is known before any byte of the body is read (the API key, or the session, in an
 * `onRequest` hook), and `beforeFile` can refuse the file part before its directory exists (the
 * dashboard checks its CSRF token there: the form sends it before the file). The temporary
 * directory belongs to the request until the handler takes it: it is removed when the request's
 * response closes, which happens whatever the outcome (answered, failed, the client gone
 * mid-upload, the socket timed out).
 */
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../../shared/errors.js'

export const UPLOAD_LIMIT = 50 * 1024 * 1024

export interface Upload {
  path: string
  name: string
  size: number
  remove(): void
}

export interface UploadOptions {
  /**
   * Called when the file part begins, with the fields sent before it: throwing refuses the
   * request with that error before anything is written.
   */
  beforeFile?: (request: FastifyRequest, fields: Readonly<Record<string, string>>) => void
}

/** Parsed files their handler has not taken yet. */
const uploads = new WeakMap<FastifyRequest, Upload>()
/** Stops a body still being read (its client is gone): the parse fails, its file is removed. */
const reading = new WeakMap<FastifyRequest, () => void>()

export function uploadOf(request: FastifyRequest): Upload | undefined {
  return uploads.get(request)
}

const tooLarge = () => new AppError(413, 'Payload Too Large.')
const malformed = () => new AppError(400, 'Malformed request body.')

function readMultipart(
  request: FastifyRequest,
  payload: Readable,
  options: UploadOptions,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {}
    let dir: string | null = null
    const cleanup = () => {
      if (dir !== null) rmSync(dir, { recursive: true, force: true })
    }
    let file: Readable | null = null
    let writing: Promise<void> = Promise.resolve()
    let settled = false
    let parser: BusboyInstance
    const fail = (error: Error) => {
      if (settled) return
      settled = true
      reading.delete(request)
      payload.unpipe(parser)
      payload.resume()
      // Ends the write (its pipeline rejects and closes the file) before the removal.
      file?.destroy(error)
      cleanup()
      writing.finally(cleanup).catch(() => {})
      reject(error)
    }
    try {
      parser = Busboy({
        headers: request.headers as BusboyHeaders,
        limits: { fields: 20, fieldSize: 64 * 1024, files: 1, fileSize: UPLOAD_LIMIT, parts: 21 },
      })
    } catch {
      reject(malformed())
      return
    }
    reading.set(request, () => fail(new AppError(400, 'The upload was interrupted.')))
    parser.on('field', (name: string, value: string) => {
      fields[name] = value
    })
    parser.on('file', (name: string, stream: Readable, filename: string) => {
      if (name !== 'file' || settled) {
        stream.resume()
        return
      }
      try {
        options.beforeFile?.(request, fields)
      } catch (error) {
        stream.resume()
        fail(error instanceof Error ? error : malformed())
        return
      }
      dir = mkdtempSync(join(tmpdir(), 'slink-upload-'))
      const path = join(dir, 'upload')
      file = stream
      let size = 0
      stream.on('data', (chunk: Buffer) => (size += chunk.length))
      stream.on('limit', () => fail(tooLarge()))
      writing = pipeline(stream, createWriteStream(path)).then(() => {
        if (settled) return
        const remove = cleanup
        uploads.set(request, { path, name: filename || 'upload', size, remove })
        fields.file = filename || 'upload'
      })
    })
    parser.on('filesLimit', () => fail(new AppError(422, 'Only one file can be sent.')))
    parser.on('fieldsLimit', () => fail(tooLarge()))
    parser.on('partsLimit', () => fail(tooLarge()))
    parser.on('error', () => fail(malformed()))
    parser.on('finish', () => {
      writing.then(
        () => {
          if (settled) return
          settled = true
          reading.delete(request)
          resolve(fields)
        },
        () => fail(malformed()),
      )
    })
    payload.pipe(parser)
  })
}

/** In this scope, multipart bodies may carry one file. */
export function registerUploadParser(app: FastifyInstance, options: UploadOptions = {}): void {
  app.removeContentTypeParser('multipart/form-data')
  app.addContentTypeParser(
    'multipart/form-data',
    { bodyLimit: UPLOAD_LIMIT + 1024 * 1024 },
    (request, payload, done) => {
      readMultipart(request, payload as Readable, options).then(
        (parsed) => done(null, parsed),
        (error: Error) => done(error),
      )
    },
  )
  // The response's close comes last whatever happens (answered, failed, the client gone
  // mid-upload, the socket timed out): a body still being read stops there, and a file no
  // handler took is removed.
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.once('close', () => {
      reading.get(request)?.()
      uploads.get(request)?.remove()
      uploads.delete(request)
    })
  })
  // An answer given before the body was read through (refused, too large) closes the
  // connection: the rest of the body is not read.
  app.addHook('onSend', async (request, reply) => {
    if (request.raw.complete === false) reply.header('connection', 'close')
  })
}

/** The handler takes the file: it is no longer removed with the response. */
export function takeUpload(request: FastifyRequest): Upload | undefined {
  const upload = uploads.get(request)
  if (!upload) return undefined
  uploads.delete(request)
  return upload
}
