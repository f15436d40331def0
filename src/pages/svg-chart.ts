/**
 * A bar chart as inline SVG, drawn on the server: no script, no asset from anywhere, colours
 * from the page's stylesheet (no inline styles, which the CSP forbids). Every bar is one
 * `<rect class="bar">`, a bar of zero too (zero high), with a `<title>` shown on hover; the
 * scale is rounded up to a readable maximum; about six bars are labelled underneath. Every
 * text goes through `markup`.
 */
import { markup, type SafeHtml } from './html.js'

export interface ChartBar {
  label: string
  value: number
}

export interface BarChartInput {
  /** Unique on the page: names the chart's title element. */
  id: string
  title: string
  bars: readonly ChartBar[]
  /** The word after a bar's number in its tooltip (`clicks`). */
  unit: string
}

const WIDTH = 720
const HEIGHT = 220
const LEFT = 48
const RIGHT = 8
const TOP = 12
const BOTTOM = 28
const PLOT_WIDTH = WIDTH - LEFT - RIGHT
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM

const numbers = new Intl.NumberFormat('en-US')
const coordinate = (n: number) => String(Math.round(n * 100) / 100)

/** The smallest of 1, 2, 5 × 10^k that is at least `max` (1 for an empty chart). */
export function niceCeiling(max: number): number {
  if (!(max > 0)) return 1
  const power = 10 ** Math.floor(Math.log10(max))
  for (const step of [1, 2, 5]) if (step * power >= max) return step * power
  return 10 * power
}

/** A label centred under its bar (the margins leave room for a date under the first and last). */
function label(bar: ChartBar, x: number): SafeHtml {
  return markup`<text class="tick" x="${coordinate(x)}" y="${HEIGHT - 8}" text-anchor="middle">${bar.label}</text>\n`
}

export function barChart(input: BarChartInput): SafeHtml {
  const { bars } = input
  const ceiling = niceCeiling(Math.max(0, ...bars.map((b) => b.value)))
  const slot = PLOT_WIDTH / Math.max(1, bars.length)
  const every = Math.max(1, Math.ceil(bars.length / 6))
  const base = TOP + PLOT_HEIGHT
  const rects = bars.map((bar, i) => {
    const height = (Math.max(0, bar.value) / ceiling) * PLOT_HEIGHT
    const x = LEFT + i * slot + slot * 0.1
    return markup`<rect class="bar" x="${coordinate(x)}" y="${coordinate(base - height)}" width="${coordinate(slot * 0.8)}" height="${coordinate(height)}"><title>${bar.label}: ${numbers.format(bar.value)} ${input.unit}</title></rect>\n`
  })
  const ticks = bars.flatMap((bar, i) =>
    i % every === 0 ? [label(bar, LEFT + i * slot + slot / 2)] : [],
  )
  return markup`<svg class="chart" id="${input.id}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${input.id}-title" data-bars="${bars.length}">
<title id="${input.id}-title">${input.title}</title>
<line class="grid" x1="${LEFT}" y1="${TOP}" x2="${WIDTH - RIGHT}" y2="${TOP}"></line>
<line class="grid" x1="${LEFT}" y1="${TOP + PLOT_HEIGHT / 2}" x2="${WIDTH - RIGHT}" y2="${TOP + PLOT_HEIGHT / 2}"></line>
<line class="axis" x1="${LEFT}" y1="${base}" x2="${WIDTH - RIGHT}" y2="${base}"></line>
<text class="tick" x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end">${numbers.format(ceiling)}</text>
<text class="tick" x="${LEFT - 6}" y="${base}" text-anchor="end">0</text>
${rects}${ticks}</svg>`
}
