/**
 * The pixel page's one inline script. `loadPixels` runs every vendor snippet (each isolated, so
 * one failing can't stop the rest) and, in consent mode, adds the beacons kept inert in the
 * `<template>`. Without consent it leaves after `delayMs` and loads the pixels at once; with
 * consent nothing runs until the visitor accepts (then pixels, then leave after `delayMs`) or
 * declines (leave at once). Leaving is `location.replace`, so Back skips this page.
 */
import { scriptJson } from './safe-values.js'

export const PIXEL_IDS = {
  accept: 'pixel-accept',
  decline: 'pixel-decline',
  beacons: 'pixel-beacons',
} as const

export interface PixelScriptInput {
  /** http(s) URL to go to, or `null` to stay (an unusable destination). */
  destination: string | null
  snippets: readonly string[]
  consent: boolean
  delayMs: number
}

const RUNTIME = `var w = window
var d = document
var nonce = (d.currentScript && d.currentScript.nonce) || ''
function load(src, onload) {
  var s = d.createElement('script')
  s.async = true
  s.src = src
  if (nonce) s.nonce = nonce
  if (onload) s.onload = onload
  d.head.appendChild(s)
}
function run(snippet) {
  try { snippet() } catch (e) { /* a broken vendor snippet must not stop the others */ }
}
function go() {
  if (config.destination) w.location.replace(config.destination)
}`

const IMMEDIATE = `w.setTimeout(go, config.delayMs)
loadPixels()`

const ON_CONSENT = `var accept = d.getElementById(${scriptJson(PIXEL_IDS.accept)})
var decline = d.getElementById(${scriptJson(PIXEL_IDS.decline)})
accept.hidden = false
accept.addEventListener('click', function () {
  accept.disabled = true
  loadPixels()
  w.setTimeout(go, config.delayMs)
})
decline.addEventListener('click', function (event) {
  event.preventDefault()
  go()
})`

function indent(code: string): string {
  return code.replace(/^(?=.)/gm, '    ')
}

export function pixelScript(input: PixelScriptInput): string {
  const config = { destination: input.destination, delayMs: input.delayMs }
  const runs = input.snippets.map((code) => `  run(function () {\n${indent(code)}\n  })`)
  return `(function () {
'use strict'
var config = ${scriptJson(config)}
${RUNTIME}
function loadPixels() {
${runs.join('\n')}
  var beacons = d.getElementById(${scriptJson(PIXEL_IDS.beacons)})
  if (beacons) d.body.appendChild(beacons.content.cloneNode(true))
}
${input.consent ? ON_CONSENT : IMMEDIATE}
})()`
}
