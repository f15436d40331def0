/**
 * The world map's pieces: the projected countries (codes from the ISO numbers, Kosovo's own),
 * the logarithmic shading, the escaping of every text, and the dashboard's period presets.
 */
import { describe, expect, it } from 'vitest'
import {
  countryShapes,
  MAP_HEIGHT,
  MAP_WIDTH,
  shadeOf,
  worldMap,
} from '../../src/pages/world-map.js'
import { periodChoices } from '../../src/stats/period-choices.js'

describe('the world map', () => {
  it('has one shape per drawn country, named by alpha-2 code, inside the frame, without Antarctica', () => {
    const shapes = countryShapes()
    const codes = shapes.map((s) => s.code)
    expect(shapes.length).toBe(176)
    for (const code of ['US', 'DE', 'BR', 'IN', 'AU', 'ZA', 'JP', 'XK', 'GL', 'RU', 'NZ'])
      expect(codes).toContain(code)
    expect(codes).not.toContain('AQ')
    for (const code of codes) expect(code).toMatch(/^[A-Z]{2}$/)
    // Northern Cyprus and Somaliland are drawn as the country GeoIP data reports there.
    expect(codes.filter((c) => c === 'CY').length).toBe(2)
    expect(codes.filter((c) => c === 'SO').length).toBe(2)
    for (const { d } of shapes) {
      const numbers = d.match(/-?\d+(\.\d+)?/g)!.map(Number)
      const xs = numbers.filter((_, i) => i % 2 === 0)
      const ys = numbers.filter((_, i) => i % 2 === 1)
      expect(Math.min(...xs)).toBeGreaterThanOrEqual(-1)
      expect(Math.max(...xs)).toBeLessThanOrEqual(MAP_WIDTH + 1)
      expect(Math.min(...ys)).toBeGreaterThanOrEqual(-1)
      expect(Math.max(...ys)).toBeLessThanOrEqual(MAP_HEIGHT + 1)
    }
  })

  it.each([
    [0, 100, 0],
    [1, 100, 1],
    [3, 100, 2],
    [9, 100, 3],
    [30, 100, 4],
    [99, 100, 5],
    [100, 100, 5],
    [1, 1, 5],
    [5, 0, 0],
  ])('shades %i clicks of a busiest %i in class %i', (clicks, max, shade) => {
    expect(shadeOf(clicks, max)).toBe(shade)
  })

  it('titles each country with its name and clicks, escaped', () => {
    const svg = worldMap({
      id: 'map',
      title: 'Clicks <by> "country"',
      clicks: new Map([
        ['FR', 1],
        ['DE', 2500],
      ]),
      nameOf: (code) => (code === 'FR' ? '<b>France</b>' : code === 'DE' ? 'Germany' : code),
    }).text
    expect(svg).toContain('<title id="map-title">Clicks &lt;by&gt; &quot;country&quot;</title>')
    expect(svg).toMatch(
      /<path class="map-1" data-country="FR" d="[^"]+"><title>&lt;b&gt;France&lt;\/b&gt;: 1 click<\/title><\/path>/,
    )
    expect(svg).toMatch(
      /<path class="map-5" data-country="DE" d="[^"]+"><title>Germany: 2,500 clicks<\/title>/,
    )
    // Without a name from Intl, Natural Earth's name is shown.
    expect(svg).toMatch(/data-country="XK" d="[^"]+"><title>Kosovo: 0 clicks<\/title>/)
    expect(svg).not.toContain('<b>')
  })
})

describe('the periods the dashboard offers', () => {
  it('offers 7, 30 and 90 days, this year and all time for a link younger than a year', () => {
    expect(periodChoices('2026-04-10', '2026-02-01')).toEqual([
      { label: 'Last 7 days', period: { from: '2026-04-04', to: '2026-04-10' } },
      { label: 'Last 30 days', period: { from: '2026-03-12', to: '2026-04-10' } },
      { label: 'Last 90 days', period: { from: '2026-01-11', to: '2026-04-10' } },
      { label: 'This year', period: { from: '2026-01-01', to: '2026-04-10' } },
      { label: 'All time', period: { from: '2026-02-01', to: '2026-04-10' } },
    ])
  })

  it('offers the last 366 days instead of all time for an older link', () => {
    expect(periodChoices('2026-04-10', '2025-04-10').at(-1)).toEqual({
      label: 'All time',
      period: { from: '2025-04-10', to: '2026-04-10' },
    })
    expect(periodChoices('2026-04-10', '2025-04-09').at(-1)).toEqual({
      label: 'Last 366 days',
      period: { from: '2025-04-10', to: '2026-04-10' },
    })
  })

  it('keeps all time one day long for a link made today (or with a clock behind)', () => {
    expect(periodChoices('2026-04-10', '2026-04-11').at(-1)).toEqual({
      label: 'All time',
      period: { from: '2026-04-10', to: '2026-04-10' },
    })
  })
})
