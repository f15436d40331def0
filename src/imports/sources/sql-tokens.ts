/**
 * The tokens of a MySQL dump (mysqldump, phpMyAdmin), from its text as it arrives: words,
 * quoted identifiers (backticks; double quotes, which are strings or identifiers by position),
 * strings with backslash escapes and doubled quotes, hex literals (`0x…`, `X'…'`), numbers,
 * and punctuation. Comments (`-- `, `#`, `/* … *\/`, MySQL's `/*!… *\/`) are skipped. Nothing
 * is ever executed. Memory stays flat: a quoted token over MAX_TOKEN characters is dropped as it
 * arrives and comes out with a null value (`tooLong`).
 */

export type SqlToken =
  | { type: 'word' | 'ident' | 'number' | 'punct'; value: string }
  /** A single-quoted string, or a double-quoted text (a string, or an identifier in ANSI mode). */
  | { type: 'string' | 'double'; value: string | null }
  /** The hex digits of `0x…` or `X'…'` (null when too long). */
  | { type: 'hex'; value: string | null }

export const MAX_TOKEN = 1024 * 1024

const ESCAPES: Record<string, string> = {
  '0': '\0',
  b: '\b',
  n: '\n',
  r: '\r',
  t: '\t',
  Z: '\x1a',
  '%': '\\%',
  _: '\\_',
}

const WORD = /[A-Za-z0-9_$\u0080-\uffff]/
const HEX = /^[0-9a-fA-F]*$/

type State =
  | { in: 'none' }
  | { in: 'line-comment' }
  | { in: 'block-comment'; star: boolean }
  | {
      in: 'quoted'
      quote: string
      parts: string[]
      length: number
      escape: boolean
      close: boolean
    }
  | { in: 'bare'; text: string }

/** Feeds text in, takes tokens out: `push` returns the tokens completed by that text. */
export class SqlLexer {
  private state: State = { in: 'none' }
  /** Text held back because it may continue in the next chunk (`-`, `/`, `0x`, `X'`). */
  private pending = ''

  push(chunk: string, final = false): SqlToken[] {
    const out: SqlToken[] = []
    const text = this.pending + chunk
    this.pending = ''
    let i = 0
    const n = text.length
    while (i < n) {
      const s = this.state
      if (s.in === 'line-comment') {
        const nl = text.indexOf('\n', i)
        if (nl === -1) return out
        this.state = { in: 'none' }
        i = nl + 1
        continue
      }
      if (s.in === 'block-comment') {
        for (; i < n; i++) {
          if (s.star && text[i] === '/') break
          s.star = text[i] === '*'
        }
        if (i < n) {
          this.state = { in: 'none' }
          i++
        }
        continue
      }
      if (s.in === 'quoted') {
        i = this.quoted(s, text, i, out)
        continue
      }
      if (s.in === 'bare') {
        let j = i
        const numeric = /^\d/.test(s.text || text[i]!)
        while (j < n && (WORD.test(text[j]!) || (numeric && text[j] === '.'))) j++
        s.text += text.slice(i, j)
        if (s.text.length > MAX_TOKEN) s.text = s.text.slice(0, MAX_TOKEN + 1)
        if (j === n && !final) return out
        i = j
        // `X'…'`: a hex string.
        if (/^[xX]$/.test(s.text) && text[i] === "'") {
          this.state = {
            in: 'quoted',
            quote: 'x',
            parts: [],
            length: 0,
            escape: false,
            close: false,
          }
          i++
          continue
        }
        out.push(bare(s.text))
        this.state = { in: 'none' }
        continue
      }
      const c = text[i]!
      if (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\f') {
        i++
        continue
      }
      // Two-character openings need the next character.
      if ((c === '-' || c === '/') && i + 1 >= n && !final) {
        this.pending = c
        return out
      }
      if (c === '#' || (c === '-' && text[i + 1] === '-' && /[\s]|^$/.test(text[i + 2] ?? ''))) {
        if (c === '-' && i + 2 >= n && !final) {
          this.pending = text.slice(i)
          return out
        }
        this.state = { in: 'line-comment' }
        continue
      }
      if (c === '/' && text[i + 1] === '*') {
        this.state = { in: 'block-comment', star: false }
        i += 2
        continue
      }
      if (c === "'" || c === '"' || c === '`') {
        this.state = { in: 'quoted', quote: c, parts: [], length: 0, escape: false, close: false }
        i++
        continue
      }
      if (WORD.test(c)) {
        this.state = { in: 'bare', text: '' }
        continue
      }
      out.push({ type: 'punct', value: c })
      i++
    }
    if (final) {
      if (this.state.in === 'bare') out.push(bare(this.state.text))
      this.state = { in: 'none' }
    }
    return out
  }

  /** Reads a quoted token from `i`; returns where it stopped (the chunk's end, or after it). */
  private quoted(
    s: Extract<State, { in: 'quoted' }>,
    text: string,
    i: number,
    out: SqlToken[],
  ): number {
    const quote = s.quote === 'x' ? "'" : s.quote
    const escapes = s.quote === "'" || s.quote === '"'
    const keep = (part: string) => {
      s.length += part.length
      if (s.length <= MAX_TOKEN) s.parts.push(part)
    }
    while (i < text.length) {
      if (s.close) {
        // A quote was seen: doubled, it is one quote inside the token; else the token ends.
        s.close = false
        if (text[i] === quote) {
          keep(quote)
          i++
          continue
        }
        this.state = { in: 'none' }
        out.push(finish(s))
        return i
      }
      if (s.escape) {
        s.escape = false
        const c = text[i]!
        keep(ESCAPES[c] ?? c)
        i++
        continue
      }
      let j = i
      while (j < text.length && text[j] !== quote && !(escapes && text[j] === '\\')) j++
      if (j > i) keep(text.slice(i, j))
      if (j === text.length) return j
      if (text[j] === '\\') s.escape = true
      else s.close = true
      i = j + 1
    }
    return i
  }

  /** The last token, once the text has ended (a quote closing at the very end). */
  end(): SqlToken[] {
    const s = this.state
    const out = this.push('', true)
    if (s.in === 'quoted' && s.close) out.push(finish(s))
    return out
  }
}

function finish(s: Extract<State, { in: 'quoted' }>): SqlToken {
  const value = s.length > MAX_TOKEN ? null : s.parts.join('')
  if (s.quote === 'x')
    return { type: 'hex', value: value !== null && HEX.test(value) ? value : null }
  if (s.quote === '`') return { type: 'ident', value: value ?? '' }
  return { type: s.quote === '"' ? 'double' : 'string', value }
}

function bare(text: string): SqlToken {
  if (/^0x[0-9a-fA-F]*$/.test(text))
    return { type: 'hex', value: text.length > MAX_TOKEN ? null : text.slice(2) }
  if (/^\d+(\.\d*)?([eE]\d+)?$/.test(text)) return { type: 'number', value: text }
  return { type: 'word', value: text }
}
