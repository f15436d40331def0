/**
 * The pixel page: loads each pixel's vendor snippet, then sends the visitor on to the
 * destination (script after `PIXEL_REDIRECT_DELAY_MS`, `<meta refresh>` after a second as the
 * no-script fallback). With `consent`, it first asks; nothing loads and nothing redirects until
 * the visitor chooses, and the no-script way on is a plain link that skips the pixels.
 * Sent with 200. Its CSP allows exactly the hosts of the vendors present, and puts the page in a
 * sandbox whose origin is opaque: the vendors' code never runs as this origin (the dashboard's).
 */
import type { PixelTypeInput } from '../pixels/types.js'
import { unionHosts } from './csp.js'
import { markup, type SafeHtml } from './html.js'
import { renderPage, type RenderedPage } from './layout.js'
import { PIXEL_IDS, pixelScript } from './pixel-script.js'
import { PIXEL_VENDORS, type PixelVendor } from './pixel-vendors.js'
import { isHttpUrl } from '../shared/formats.js'
import { destinationUrl } from './safe-values.js'

/** How long the script waits for vendor scripts before leaving. */
export const PIXEL_REDIRECT_DELAY_MS = 400
/** The no-script fallback's `<meta http-equiv="refresh">` delay. */
export const PIXEL_REFRESH_SECONDS = 1

export interface PixelPageInput {
  destination: string
  pixels: { type: PixelTypeInput; value: string }[]
  consent: boolean
}

interface Placed {
  vendor: PixelVendor
  value: string
}

function beacons(placed: readonly Placed[]): SafeHtml {
  return markup`${placed.map(({ vendor, value }) =>
    vendor.beacon
      ? markup`<img src="${vendor.beacon(value)}" alt="" width="1" height="1" hidden>\n`
      : null,
  )}`
}

function noscriptFrames(placed: readonly Placed[]): SafeHtml {
  return markup`${placed.map(({ vendor, value }) =>
    vendor.noscriptFrame
      ? markup`<noscript><iframe src="${vendor.noscriptFrame(value)}" width="0" height="0"
  hidden></iframe></noscript>\n`
      : null,
  )}`
}

function consentBody(href: string, placed: readonly Placed[]): SafeHtml {
  const names = [...new Set(placed.map(({ vendor }) => vendor.name))].join(', ')
  return markup`<h1>Before you continue</h1>
<p>This link records visits with tracking by ${names}.</p>
<p class="muted">Allow them to record this visit? You can also continue without them.</p>
<div class="actions">
<button type="button" id="${PIXEL_IDS.accept}" hidden>Accept and continue</button>
<a class="button secondary" id="${PIXEL_IDS.decline}" href="${href}">Continue without tracking</a>
</div>
<template id="${PIXEL_IDS.beacons}">
${beacons(placed)}</template>`
}

function redirectBody(href: string, placed: readonly Placed[]): SafeHtml {
  return markup`<h1>Redirecting…</h1>
<p>You are being taken to <a href="${href}">${href}</a>.</p>
${beacons(placed)}${noscriptFrames(placed)}`
}

export function pixelPage(input: PixelPageInput): RenderedPage {
  const destination = destinationUrl(input.destination)
  const href = destination ?? '#'
  const placed: Placed[] = input.pixels.flatMap(({ type, value }) => {
    // `x` is the newer name of `twitter` (pixels/types.ts); spelled out here so that pages
    // need nothing of the pixels folder at run time.
    const vendor = PIXEL_VENDORS[type === 'x' ? 'twitter' : type] as PixelVendor | undefined
    return vendor ? [{ vendor, value }] : []
  })
  const refresh =
    input.consent || destination === null
      ? undefined
      : markup`<meta http-equiv="refresh" content="${PIXEL_REFRESH_SECONDS};url=${destination}">\n`
  return renderPage({
    title: input.consent ? 'Before you continue' : 'Redirecting…',
    head: refresh,
    body: input.consent ? consentBody(href, placed) : redirectBody(href, placed),
    script: pixelScript({
      destination,
      snippets: placed.map(({ vendor, value }) => vendor.snippet(value)),
      consent: input.consent,
      delayMs: PIXEL_REDIRECT_DELAY_MS,
    }),
    hosts: unionHosts(placed.map(({ vendor }) => vendor.hosts)),
    referrerPolicy: 'strict-origin',
    // The vendors' code (a Tag Manager container runs whatever its owner puts in it) runs
    // without this origin: the dashboard's cookies, storage and pages stay out of its reach.
    // Scripts run, and the page still navigates itself on to the destination.
    // An app link (`mailto:`, `spotify:` …) is a navigation to another protocol, which a
    // sandbox allows only with its own token.
    sandbox:
      destination === null || isHttpUrl(destination)
        ? ['allow-scripts']
        : ['allow-scripts', 'allow-top-navigation-to-custom-protocols'],
  })
}
