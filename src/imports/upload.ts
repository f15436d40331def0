/**
 * The multipart body of `POST /api/v1/imports`: its fields as a form, and its one file part
 * written to a temporary file as it arrives (never held in memory), up to UPLOAD_LIMIT; past it
 * the request is a 413. Only this route reads files: everywhere else file parts are ignored.
 */
import { Busboy, type BusboyHeaders } from '@fastify/busboy'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../shared/errors.js'

export const UPLOAD_LIMIT = 50 * 1024 * 1024

export interface Upload {
  path: string
  name: string
  size: number
  remove(): void
}

const uploads = new WeakMap<FastifyRequest, Upload>()

export function uploadOf(request: FastifyRequest): Upload | undefined {
  return uploads.get(request)
}

const tooLarge = () => new AppError(413, 'Payload Too Large.')

function readMultipart(
  request: FastifyRequest,
  payload: NodeJS.ReadableStream,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {}
    const dir = mkdtempSync(join(tmpdir(), 'slink-upload-'))
    const cleanup = () => rmSync(dir, { recursive: true, force: true })
    let writing: Promise<void> = Promise.resolve()
    let failed = false
    const fail = (error: AppError) => {
      if (failed) return
      failed = true
      payload.unpipe?.()
      payload.resume()
      writing.finally(cleanup).catch(() => {})
      reject(error)
    }
    let parser
    try {
      parser = Busboy({
        headers: request.headers as BusboyHeaders,
        limits: { fields: 20, fieldSize: 64 * 1024, files: 1, fileSize: UPLOAD_LIMIT, parts: 21 },
      })
    } catch {
      cleanup()
      reject(new AppError(400, 'Malformed request body.'))
      return
    }
    parser.on('field', (name: string, value: string) => {
      fields[name] = value
    })
    parser.on('file', (name: string, stream: NodeJS.ReadableStream, filename: string) => {
      if (name !== 'file') {
        stream.resume()
        return
      }
      const path = join(dir, 'upload')
      let size = 0
      stream.on('data', (chunk: Buffer) => (size += chunk.length))
      stream.on('limit', () => fail(tooLarge()))
      writing = pipeline(stream, createWriteStream(path)).then(() => {
        if (failed) return
        const upload: Upload = { path, name: filename || 'upload', size, remove: cleanup }
        uploads.set(request, upload)
        fields.file = upload.name
      })
    })
    parser.on('filesLimit', () => fail(new AppError(422, 'Only one file can be sent.')))
    parser.on('fieldsLimit', () => fail(tooLarge()))
    parser.on('partsLimit', () => fail(tooLarge()))
    parser.on('error', () => fail(new AppError(400, 'Malformed request body.')))
    parser.on('finish', () => {
      writing.then(
        () => {
          if (failed) return
          if (!uploads.has(request)) cleanup()
          resolve(fields)
        },
        () => fail(new AppError(400, 'Malformed request body.')),
      )
    })
    payload.pipe(parser)
  })
}

/** In this scope, multipart bodies may carry one file. */
export function registerUploadParser(app: FastifyInstance): void {
  app.removeContentTypeParser('multipart/form-data')
  app.addContentTypeParser(
    'multipart/form-data',
    { bodyLimit: UPLOAD_LIMIT + 1024 * 1024 },
    (request, payload, done) => {
      readMultipart(request, payload).then(
        (parsed) => done(null, parsed),
        (error: Error) => done(error),
      )
    },
  )
  // A file left behind by a request that failed before its handler took it.
  app.addHook('onResponse', async (request) => {
    const upload = uploads.get(request)
    upload?.remove()
  })
}

/** The handler takes the file: it is no longer removed with the response. */
export function takeUpload(request: FastifyRequest): Upload | undefined {
  const upload = uploads.get(request)
  if (!upload) return undefined
  uploads.delete(request)
  return upload
}
