/**
 * Progress of an export or an import, on stderr. On a terminal: a bar per table (rows done of
 * its total, percentage, rate), redrawn in place at most ten times a second and left on screen
 * once the table is done. Otherwise (a log file, a pipe): nothing until the one summary line
 * at the end. Errors are printed by the caller after `abandon`.
 */
export interface ProgressOutput {
  write(text: string): unknown
  columns?: number | undefined
}

export interface Progress {
  table(name: string, total: number): void
  advance(rows: number): void
  /** Ends the last bar and prints the summary line. */
  done(summary: string): void
  /** Ends the last bar without a summary, so an error message starts on a line of its own. */
  abandon(): void
}

const REDRAW_MS = 100

export function formatCount(n: number): string {
  return n.toLocaleString('en-US')
}

/** One bar: `links           [█████░░░░░]  52%   5,200/10,000  41,000 rows/s`. */
export function barLine(name: string, done: number, total: number, ms: number, width = 80): string {
  const fraction = total === 0 ? 1 : Math.min(1, done / total)
  const rate = ms >= 1 ? Math.round((done * 1000) / ms) : 0
  // A name longer than the column (`webhook_attempts`) keeps a space before its bar.
  const label = `${name} `.padEnd(15)
  const counts = `${formatCount(done)}/${formatCount(total)}`.padStart(19)
  const speed = rate > 0 ? `  ${formatCount(rate)} rows/s` : ''
  const right = ` ${String(Math.floor(fraction * 100)).padStart(3)}% ${counts}${speed}`
  const room = Math.max(10, Math.min(30, width - 1 - label.length - right.length - 2))
  const filled = Math.round(fraction * room)
  const line = `${label}[${'█'.repeat(filled)}${'░'.repeat(room - filled)}]${right}`
  return line.slice(0, Math.max(20, width - 1))
}

export function createProgress(
  out: ProgressOutput,
  bars: boolean,
  clock: () => number = () => performance.now(),
): Progress {
  let current: { name: string; total: number; done: number; started: number } | null = null
  let drawn = 0

  const draw = (final: boolean) => {
    if (!current) return
    const line = barLine(
      current.name,
      current.done,
      current.total,
      clock() - current.started,
      out.columns || 80,
    )
    out.write(`\r\x1b[2K${line}${final ? '\n' : ''}`)
    drawn = clock()
  }
  const close = () => {
    draw(true)
    current = null
  }

  if (!bars) {
    return {
      table: () => {},
      advance: () => {},
      done: (summary) => void out.write(`${summary}\n`),
      abandon: () => {},
    }
  }
  return {
    table(name, total) {
      close()
      current = { name, total, done: 0, started: clock() }
      draw(false)
    },
    advance(rows) {
      if (!current) return
      current.done += rows
      if (clock() - drawn >= REDRAW_MS) draw(false)
    },
    done(summary) {
      close()
      out.write(`${summary}\n`)
    },
    abandon() {
      if (current) out.write('\n')
      current = null
    },
  }
}
