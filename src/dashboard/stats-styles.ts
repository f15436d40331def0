/**
 * Styles of the statistics screens' figures: the map's legend (a scale drawn with the map's own
 * fills) and, on a phone, chart labels drawn large enough in the chart's units that they show at
 * 11 px or more once the 720-unit chart is shrunk to the screen.
 */
export const STATS_STYLES = `
.map-legend{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .5rem}
.map-scale{display:inline-block;border:1px solid var(--line);border-radius:3px}
@media (max-width:40rem){.chart{overflow:visible}.chart .tick{font-size:26px}}
`.trim()
