/**
 * Drawn QR codes are kept (links/qr-codes.ts): the same text, format and size is drawn once,
 * also when asked for by many requests at the same time; another format or size is another
 * code; and the memory they take is bounded (the least recently used go first).
 */
import { describe, expect, it } from 'vitest'
import { qrImage, type QrFormat } from '../../src/links/qr.js'
import { QrCodes } from '../../src/links/qr-codes.js'

function counting() {
  const drawn: string[] = []
  const draw = (text: string, format: QrFormat, size: number) => {
    drawn.push(`${format} ${size} ${text}`)
    return qrImage(text, format, size)
  }
  return { drawn, draw }
}

describe('kept QR codes', () => {
  it('draw a code once, however often and however many at a time it is asked for', async () => {
    const { drawn, draw } = counting()
    const codes = new QrCodes(draw)
    const text = 'http://short.test/poster'
    const first = await Promise.all(Array.from({ length: 5 }, () => codes.image(text, 'png', 512)))
    const again = await codes.image(text, 'png', 512)
    expect(drawn).toEqual([`png 512 ${text}`])
    expect(again).toEqual(await qrImage(text, 'png', 512))
    for (const image of first) expect(image).toBe(again)
  })

  it('keep each text, format and size apart', async () => {
    const { drawn, draw } = counting()
    const codes = new QrCodes(draw)
    await codes.image('http://short.test/a', 'png', 256)
    await codes.image('http://short.test/a', 'png', 512)
    await codes.image('http://short.test/a', 'svg', 256)
    await codes.image('http://short.test/b', 'png', 256)
    await codes.image('http://short.test/a', 'png', 256)
    expect(drawn).toEqual([
      'png 256 http://short.test/a',
      'png 512 http://short.test/a',
      'svg 256 http://short.test/a',
      'png 256 http://short.test/b',
    ])
  })

  it('take at most the bytes they are given, dropping the least recently used', async () => {
    const { drawn, draw } = counting()
    const png = await qrImage('http://short.test/0', 'png', 256)
    const codes = new QrCodes(draw, png.body.length * 3)
    for (const i of [0, 1, 2, 3]) await codes.image(`http://short.test/${i}`, 'png', 256)
    await codes.image('http://short.test/3', 'png', 256)
    await codes.image('http://short.test/0', 'png', 256)
    expect(drawn).toEqual([0, 1, 2, 3, 0].map((i) => `png 256 http://short.test/${i}`))
  })
})
