/**
 * QR codes of short links, drawn by `qrcode` (MIT, pure JS): an SVG (vector, the same at any
 * size) or a PNG of a given width. Both keep the four-module quiet zone the standard asks for
 * and use error correction level M (15 %), so a printed code survives a little wear. The
 * request's shape (format and size, with their bounds and defaults) is declared here once, for
 * the API route, the dashboard's routes and the OpenAPI document. A PNG costs drawing time that
 * grows with its area (about 90 ms of CPU at 1024 pixels, four times that at 2048), so sizes stop
 * at 1024; an SVG is the same at any size.
 */
import QRCode from 'qrcode'
import { StringEnum, Type, type Static } from '../shared/schema.js'

export const QR_FORMATS = ['svg', 'png'] as const
export type QrFormat = (typeof QR_FORMATS)[number]
export const QR_MIN_SIZE = 64
export const QR_MAX_SIZE = 1024
export const QR_DEFAULT_SIZE = 256
/** QR images a user may fetch a minute, through the API and the dashboard together. */
export const QR_IMAGES_PER_MINUTE = 30

export const QrQuery = Type.Object({
  format: Type.Optional(StringEnum(QR_FORMATS, { description: 'Default svg.' })),
  size: Type.Optional(
    Type.Integer({
      minimum: QR_MIN_SIZE,
      maximum: QR_MAX_SIZE,
      description: `Width and height in pixels, ${QR_MIN_SIZE} to ${QR_MAX_SIZE}. Default ${QR_DEFAULT_SIZE}.`,
    }),
  ),
})
export type QrQuery = Static<typeof QrQuery>

export const QR_CONTENT_TYPES: Record<QrFormat, string> = {
  svg: 'image/svg+xml; charset=utf-8',
  png: 'image/png',
}

export interface QrImage {
  contentType: string
  body: string | Buffer
}

const common = { errorCorrectionLevel: 'M', margin: 4 } as const

/** The QR code of `text` in `format`, `size` pixels wide (the SVG's width and height). */
export async function qrImage(text: string, format: QrFormat, size: number): Promise<QrImage> {
  const body =
    format === 'svg'
      ? await QRCode.toString(text, { ...common, type: 'svg', width: size })
      : await QRCode.toBuffer(text, { ...common, type: 'png', width: size })
  return { contentType: QR_CONTENT_TYPES[format], body }
}

/** `qr-<alias>.svg`, for the download's file name (an alias is letters, digits, - and _). */
export function qrFilename(alias: string, format: QrFormat): string {
  return `qr-${alias.replace(/[^A-Za-z0-9_-]/g, '_')}.${format}`
}
