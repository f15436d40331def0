/**
 * QR codes as served: each one drawn once and then kept in memory (an LRU cache bounded by
 * bytes, keyed by the encoded text, the format and the size), so asking again for a code costs
 * no drawing; requests for a code being drawn wait for that one drawing.
 */
import { LRUCache } from 'lru-cache'
import { qrImage, type QrFormat, type QrImage } from './qr.js'

/** The memory the kept codes may take (a 1024-pixel PNG is about 7 KiB, an SVG about 2 KiB). */
export const QR_CACHE_BYTES = 16 * 1024 * 1024

interface Wanted {
  text: string
  format: QrFormat
  size: number
}

export type DrawQr = (text: string, format: QrFormat, size: number) => Promise<QrImage>

export class QrCodes {
  private readonly kept: LRUCache<string, QrImage, Wanted>

  constructor(draw: DrawQr = qrImage, maxBytes = QR_CACHE_BYTES) {
    this.kept = new LRUCache<string, QrImage, Wanted>({
      maxSize: maxBytes,
      sizeCalculation: (image) => Math.max(1, Buffer.byteLength(image.body)),
      fetchMethod: (_key, _stale, { context }) => draw(context.text, context.format, context.size),
    })
  }

  /** The QR code of `text` in `format`, `size` pixels wide: kept, or drawn now. */
  async image(text: string, format: QrFormat, size: number): Promise<QrImage> {
    const image = await this.kept.fetch(`${format} ${size} ${text}`, {
      context: { text, format, size },
    })
    if (!image) throw new Error('a QR code could not be drawn')
    return image
  }
}
