/**
 * A world map of clicks per country as inline SVG, drawn on the server: Natural Earth's
 * countries at 1:110m (`world-atlas`, ISC) projected once (`d3-geo`'s Natural Earth projection,
 * Antarctica left out) into path strings that every render reuses. Countries are shaded in six
 * classes (none, then five steps on a logarithmic scale, so one big country does not wash out
 * the rest); the colours come from the page's stylesheet (no inline style, which the CSP
 * forbids), so dark mode follows. Each country has a `<title>` with its name and clicks. Every
 * text goes through `markup`. Countries too small for this scale (Singapore, Malta …) are not
 * drawn; the tables list them.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { geoNaturalEarth1, geoPath } from 'd3-geo'
import countryCodes from 'i18n-iso-countries'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import { markup, type SafeHtml } from './html.js'

export const MAP_WIDTH = 960
export const MAP_HEIGHT = 470
/** The shading classes above zero (`map-1` … `map-5`). */
export const MAP_STEPS = 5

interface CountryShape {
  /** ISO 3166-1 alpha-2 (`XK` for Kosovo). */
  code: string
  /** Natural Earth's short name: the fallback when `Intl` has none. */
  name: string
  d: string
}

/**
 * Natural Earth's shapes without an ISO number: Kosovo has its own code in GeoIP data; the two
 * others are drawn as the country GeoIP data reports for them.
 */
const UNNUMBERED: Readonly<Record<string, string>> = {
  Kosovo: 'XK',
  'N. Cyprus': 'CY',
  Somaliland: 'SO',
}
const ANTARCTICA = '010'

let shapes: CountryShape[] | null = null

/** The projected countries, computed on first use (a fifth of a second here) and kept. */
export function countryShapes(): readonly CountryShape[] {
  if (shapes) return shapes
  const require = createRequire(import.meta.url)
  const topology = JSON.parse(
    readFileSync(require.resolve('world-atlas/countries-110m.json'), 'utf8'),
  ) as Topology<{ countries: GeometryCollection<{ name: string }> }>
  const countries = feature(topology, topology.objects.countries).features.filter(
    (f) => f.id !== ANTARCTICA,
  )
  const collection = { type: 'FeatureCollection' as const, features: countries }
  const projection = geoNaturalEarth1().fitSize([MAP_WIDTH, MAP_HEIGHT], collection)
  const path = geoPath(projection).digits(0)
  shapes = countries.flatMap((f) => {
    const name = f.properties.name
    const code = f.id === undefined ? UNNUMBERED[name] : countryCodes.numericToAlpha2(String(f.id))
    const d = path(f)
    return code && d ? [{ code, name, d }] : []
  })
  return shapes
}

/** 0 for no clicks; else 1 to MAP_STEPS on a logarithmic scale up to the busiest country. */
export function shadeOf(clicks: number, max: number): number {
  if (clicks <= 0 || max <= 0) return 0
  return Math.max(1, Math.ceil((MAP_STEPS * Math.log1p(clicks)) / Math.log1p(max)))
}

const numbers = new Intl.NumberFormat('en-US')

export interface WorldMapInput {
  id: string
  title: string
  /** Clicks per alpha-2 code. */
  clicks: ReadonlyMap<string, number>
  /** The country's name for a code. */
  nameOf(code: string): string
}

export function worldMap(input: WorldMapInput): SafeHtml {
  const max = Math.max(0, ...input.clicks.values())
  const paths = countryShapes().map((shape) => {
    const clicks = input.clicks.get(shape.code) ?? 0
    const name = input.nameOf(shape.code)
    const label = `${name === shape.code ? shape.name : name}: ${numbers.format(clicks)} ${clicks === 1 ? 'click' : 'clicks'}`
    return markup`<path class="map-${shadeOf(clicks, max)}" data-country="${shape.code}" d="${shape.d}"><title>${label}</title></path>\n`
  })
  return markup`<svg class="map" id="${input.id}" viewBox="0 0 ${MAP_WIDTH} ${MAP_HEIGHT}" role="img" aria-labelledby="${input.id}-title">
<title id="${input.id}-title">${input.title}</title>
${paths}</svg>`
}
