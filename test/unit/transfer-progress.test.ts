/**
 * Progress of a transfer: bars redrawn in place on a terminal (at most ten times a second, each
 * left on screen when its table is done), one summary line anywhere else.
 */
import { describe, expect, it } from 'vitest'
import { barLine, createProgress } from '../../src/transfer/progress.js'

function terminal(columns = 100) {
  const writes: string[] = []
  return { writes, out: { columns, write: (text: string) => writes.push(text) } }
}

describe('a progress bar', () => {
  it('shows the table, a bar, the percentage, rows done of the total and the rate', () => {
    expect(barLine('clicks', 250_000, 1_000_000, 2000, 100)).toBe(
      'clicks         [████████░░░░░░░░░░░░░░░░░░░░░░]  25%   250,000/1,000,000  125,000 rows/s',
    )
    expect(barLine('settings', 0, 0, 0, 100)).toBe(
      'settings       [██████████████████████████████] 100%                 0/0',
    )
  })

  it('fits a narrow terminal without wrapping', () => {
    const line = barLine('click_visitors', 5, 10, 1000, 60)
    expect(line.length).toBeLessThan(60)
    expect(line).toMatch(/^click_visitors \[█{5}░{5}\]/)
  })
})

describe('progress on a terminal', () => {
  it('redraws a bar in place, leaves it when the table is done, then prints the summary', () => {
    let now = 0
    const { writes, out } = terminal()
    const progress = createProgress(out, true, () => now)
    progress.table('users', 10)
    now = 50
    progress.advance(4) // too soon to redraw
    now = 150
    progress.advance(4)
    progress.table('links', 0)
    progress.done('imported 8 rows into 2 tables in 0.2 s')
    expect(writes.length).toBe(6)
    const CLEAR = '\r\x1b[2K'
    for (const write of writes.slice(0, 5)) expect(write.startsWith(CLEAR)).toBe(true)
    const lines = writes.map((w) => w.replace(CLEAR, ''))
    expect(lines[0]).toMatch(/^users .* 0% +0\/10$/)
    expect(lines[1]).toMatch(/^users .* 80% +8\/10 +53 rows\/s$/)
    expect(lines[2]).toMatch(/^users .* 80% +8\/10 +53 rows\/s\n$/)
    expect(lines[3]).toMatch(/^links .*100% +0\/0$/)
    expect(lines[4]).toMatch(/^links .*100% +0\/0\n$/)
    expect(writes[5]).toBe('imported 8 rows into 2 tables in 0.2 s\n')
  })

  it('ends the current bar before an error', () => {
    const { writes, out } = terminal()
    const progress = createProgress(out, true, () => 0)
    progress.table('users', 10)
    progress.abandon()
    expect(writes.at(-1)).toBe('\n')
  })
})

describe('progress elsewhere', () => {
  it('prints only the summary line', () => {
    const { writes, out } = terminal()
    const progress = createProgress(out, false)
    progress.table('users', 10)
    progress.advance(10)
    progress.abandon()
    progress.done('exported 10 rows of 1 tables in 0.0 s')
    expect(writes).toEqual(['exported 10 rows of 1 tables in 0.0 s\n'])
  })
})
