import { describe, expect, it } from 'vitest'
import { barChart, niceCeiling } from '../../src/pages/svg-chart.js'

const bars = (values: number[]) => values.map((value, i) => ({ label: `d${i}`, value }))

describe('the SVG bar chart', () => {
  it.each([
    [0, 1],
    [1, 1],
    [3, 5],
    [7, 10],
    [10, 10],
    [11, 20],
    [199, 200],
    [201, 500],
    [2740, 5000],
    [1_000_000, 1_000_000],
  ])('rounds a maximum of %d up to %d', (max, ceiling) => {
    expect(niceCeiling(max)).toBe(ceiling)
  })

  it('draws one bar per value, zero-high for zero, scaled to the rounded maximum', () => {
    const svg = barChart({
      id: 'c',
      title: 'Clicks',
      bars: bars([0, 5, 10, 0]),
      unit: 'clicks',
    }).text
    const rects = [
      ...svg.matchAll(
        /<rect class="bar" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)">/g,
      ),
    ]
    expect(rects).toHaveLength(4)
    expect(rects.map((r) => Number(r[4]))).toEqual([0, 90, 180, 0])
    expect(rects.map((r) => Number(r[2]) + Number(r[4]))).toEqual([192, 192, 192, 192])
    expect(svg).toContain('data-bars="4"')
    expect(svg).toContain('<title>d1: 5 clicks</title>')
    expect(svg).toContain('>10</text>')
  })

  it('labels about six bars, whatever their number', () => {
    for (const n of [7, 24, 30, 90, 366]) {
      const svg = barChart({ id: 'c', title: 't', bars: bars(Array(n).fill(1)), unit: 'x' }).text
      const ticks = svg.match(/<text class="tick"[^>]*>d\d+<\/text>/g) ?? []
      expect(ticks.length, String(n)).toBeGreaterThanOrEqual(4)
      expect(ticks.length, String(n)).toBeLessThanOrEqual(7)
    }
  })

  it('escapes labels, titles and units, and uses no inline style or script', () => {
    const hostile = `"'><script>alert(1)</script>`
    const svg = barChart({
      id: 'c',
      title: hostile,
      bars: [{ label: hostile, value: 1 }],
      unit: hostile,
    }).text
    expect(svg).not.toContain('<script>')
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(svg).not.toMatch(/style=|<script|\son[a-z]+=/)
  })

  it('has an accessible name', () => {
    const svg = barChart({
      id: 'days',
      title: 'Clicks per day',
      bars: bars([1]),
      unit: 'clicks',
    }).text
    expect(svg).toMatch(
      /^<svg class="chart" id="days" viewBox="0 0 720 220" role="img" aria-labelledby="days-title"/,
    )
    expect(svg).toContain('<title id="days-title">Clicks per day</title>')
  })
})
