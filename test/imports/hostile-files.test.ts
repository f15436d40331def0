import { describe, expect, it } from 'vitest'
import { readCsv } from '../../src/imports/sources/csv.js'
import { MAX_FIELD } from '../../src/imports/sources/csv-records.js'

async function rows(bytes: Buffer, chunk = bytes.length) {
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk)
  }
  const out: { line: number; url: string | null; title: string | null; problem: string | null }[] =
    []
  for await (const r of readCsv(chunks()))
    out.push({ line: r.line, url: r.url, title: r.title, problem: r.problem })
  return out
}

const CSV = 'url,title\nhttps://example.com/,Café ünï 🚀\n'
const EXPECTED = [{ line: 1, url: 'https://example.com/', title: 'Café ünï 🚀', problem: null }]

describe('hostile CSV files', () => {
  it('reads UTF-8 with and without a byte-order mark, even cut inside a character', async () => {
    expect(await rows(Buffer.from(CSV))).toEqual(EXPECTED)
    expect(
      await rows(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(CSV)]), 3),
    ).toEqual(EXPECTED)
  })

  it('reads UTF-16 LE with its byte-order mark', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CSV, 'utf16le')])
    expect(await rows(bytes, 5)).toEqual(EXPECTED)
  })

  it('falls back to Latin-1 when the bytes are not UTF-8', async () => {
    const bytes = Buffer.from('url,title\nhttps://example.com/,Caf\xe9 \xfcn\xef\n', 'latin1')
    expect(await rows(bytes)).toEqual([
      { line: 1, url: 'https://example.com/', title: 'Café ünï', problem: null },
    ])
  })

  it('reports a wrong column count, a huge field and a broken quote in their rows and reads on', async () => {
    const huge = 'x'.repeat(MAX_FIELD + 10)
    const text = [
      'url,title',
      'https://example.com/1,one,extra',
      `https://example.com/2,${huge}`,
      'https://example.com/3,three',
      'https://example.com/4',
      'https://example.com/5,"five',
    ].join('\n')
    expect(await rows(Buffer.from(text), 64 * 1024)).toEqual([
      { line: 1, url: null, title: null, problem: 'The row has 3 fields, the header 2.' },
      {
        line: 2,
        url: null,
        title: null,
        problem: `A line is longer than ${MAX_FIELD} characters.`,
      },
      { line: 3, url: 'https://example.com/3', title: 'three', problem: null },
      { line: 4, url: null, title: null, problem: 'The row has 1 fields, the header 2.' },
      {
        line: 5,
        url: null,
        title: null,
        problem: 'The row cannot be read as CSV: Quote Not Closed.',
      },
    ])
  })

  it('reports a 10 MB quoted title in its row and reads the rows after it, with CRLF or LF line ends', async () => {
    for (const end of ['\r\n', '\n']) {
      const text = [
        'url,alias,title',
        `https://example.com/1,one,"${'x'.repeat(10 * 1024 * 1024)}"`,
        'https://example.com/2,two,Two',
        'https://example.com/3,three,Three',
      ].join(end)
      expect(await rows(Buffer.from(text + end), 64 * 1024)).toEqual([
        {
          line: 1,
          url: null,
          title: null,
          problem: `A line is longer than ${MAX_FIELD} characters.`,
        },
        { line: 2, url: 'https://example.com/2', title: 'Two', problem: null },
        { line: 3, url: 'https://example.com/3', title: 'Three', problem: null },
      ])
    }
  })

  it('keeps a formula-looking title as text, and reads back the quote our export adds', async () => {
    const text =
      "url,title\nhttps://example.com/,=cmd|' /C calc'!A0\nhttps://example.com/,'=SUM(A1)\n"
    expect((await rows(Buffer.from(text))).map((r) => r.title)).toEqual([
      "=cmd|' /C calc'!A0",
      '=SUM(A1)',
    ])
  })
})
