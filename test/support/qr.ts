/**
 * Reads QR codes back in tests: a PNG through `pngjs` and `jsqr`; an SVG of `qrcode` (one
 * stroked path of horizontal runs, each `h<n>` at a `y.5` centre line) by drawing its runs into
 * a pixel buffer, so that what is decoded is what the SVG draws, not the text we hoped it held.
 */
import jsqr from 'jsqr'
import { PNG } from 'pngjs'

// jsqr is CommonJS with a `default` property; NodeNext types its default import as the module.
const jsQR = jsqr.default

function decode(data: Uint8ClampedArray, width: number, height: number): string | null {
  return jsQR(data, width, height)?.data ?? null
}

export function decodePng(png: Buffer): { text: string | null; width: number; height: number } {
  const image = PNG.sync.read(png)
  return {
    text: decode(new Uint8ClampedArray(image.data), image.width, image.height),
    width: image.width,
    height: image.height,
  }
}

/** The dark modules of the SVG's path (`M x y h n`, then relative `m dx dy h n` moves). */
export function svgModules(svg: string): { size: number; dark: Set<string> } {
  const box = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)
  const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)
  if (!box || !path) throw new Error('not a qrcode SVG')
  const dark = new Set<string>()
  let x = 0
  let y = 0
  for (const [, command, a, b] of path[1]!.matchAll(/([MmHhVv])(-?[\d.]+)(?:[ ,](-?[\d.]+))?/g)) {
    const n = Number(a)
    if (command === 'M') [x, y] = [n, Number(b)]
    else if (command === 'm') [x, y] = [x + n, y + Number(b)]
    else if (command === 'h') {
      for (let i = 0; i < n; i++) dark.add(`${x + i},${Math.floor(y)}`)
      x += n
    } else throw new Error(`unexpected path command ${command}`)
  }
  return { size: Number(box[1]), dark }
}

/** Draws the SVG's modules, `scale` pixels each, and decodes them. */
export function decodeSvg(svg: string, scale = 8): string | null {
  const { size, dark } = svgModules(svg)
  const width = size * scale
  const data = new Uint8ClampedArray(width * width * 4).fill(255)
  for (let py = 0; py < width; py++) {
    for (let px = 0; px < width; px++) {
      if (!dark.has(`${Math.floor(px / scale)},${Math.floor(py / scale)}`)) continue
      const at = (py * width + px) * 4
      data[at] = data[at + 1] = data[at + 2] = 0
    }
  }
  return decode(data, width, width)
}
