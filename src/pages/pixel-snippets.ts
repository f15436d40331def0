/**
 * Each vendor's standard pixel snippet, adapted to the page's CSP: plain code run inside the
 * page's one nonce'd script (which provides `w` = window, `d` = document and `load(src,
 * onload?)`, a nonce-carrying async script loader), no inline handlers, no `eval`. Every URL is
 * built here, so the script's text names it in full. Values are embedded with `scriptJson`.
 */
import { scriptJson as js } from './safe-values.js'

/** A Google Ads id with its `AW-` prefix, whether or not the stored value has it. */
export function googleAdsId(value: string): string {
  return /^aw-/i.test(value) ? `AW-${value.slice(3)}` : `AW-${value}`
}

/** A Tag Manager container id with its `GTM-` prefix, whether or not the stored value has it. */
export function tagManagerId(value: string): string {
  return /^gtm-/i.test(value) ? `GTM-${value.slice(4)}` : `GTM-${value}`
}

/** AdRoll's value is `ADVID-PIXID`. */
export function adrollIds(value: string): { advertiser: string; pixel: string } {
  const dash = value.indexOf('-')
  return dash < 0
    ? { advertiser: value, pixel: '' }
    : { advertiser: value.slice(0, dash), pixel: value.slice(dash + 1) }
}

const q = encodeURIComponent

export function adrollSnippet(value: string): string {
  const { advertiser, pixel } = adrollIds(value)
  return `w.adroll_adv_id = ${js(advertiser)}; w.adroll_pix_id = ${js(pixel)}; w.adroll_version = '2.0'
w.__adroll_loaded = true; w.adroll = w.adroll || []; w.adroll.f = ['setProperties', 'identify', 'track']
w.adroll.f.forEach(function (n) { w.adroll[n] = w.adroll[n] || function () { w.adroll.push([n, arguments]) } })
load(${js(`https://s.adroll.com/j/${q(advertiser)}/roundtrip.js`)})
w.adroll.track('pageView')`
}

export function bingSnippet(value: string): string {
  return `w.uetq = w.uetq || []
load('https://bat.bing.com/bat.js', function () {
  var o = { ti: ${js(value)}, enableAutoSpaTracking: true }
  o.q = w.uetq; w.uetq = new w.UET(o); w.uetq.push('pageLoad')
})`
}

export function facebookSnippet(value: string): string {
  return `if (!w.fbq) {
  var n = (w.fbq = function () { n.callMethod ? n.callMethod.apply(n, arguments) : n.queue.push(arguments) })
  if (!w._fbq) w._fbq = n
  n.push = n; n.loaded = true; n.version = '2.0'; n.queue = []
  load('https://connect.facebook.net/en_US/fbevents.js')
}
w.fbq('init', ${js(value)}); w.fbq('track', 'PageView')`
}

/** gtag.js, shared by Google Ads and Google Analytics (the `js` event is sent once a page). */
function gtagSnippet(id: string): string {
  return `w.dataLayer = w.dataLayer || []
if (!w.gtag) { w.gtag = function () { w.dataLayer.push(arguments) }; w.gtag('js', new Date()) }
load(${js(`https://www.googletagmanager.com/gtag/js?id=${q(id)}`)})
w.gtag('config', ${js(id)})`
}

export function googleAdsSnippet(value: string): string {
  return gtagSnippet(googleAdsId(value))
}

export function googleAnalyticsSnippet(value: string): string {
  return gtagSnippet(value)
}

export function tagManagerSnippet(value: string): string {
  return `w.dataLayer = w.dataLayer || []
w.dataLayer.push({ 'gtm.start': new Date().getTime(), event: 'gtm.js' })
load(${js(`https://www.googletagmanager.com/gtm.js?id=${q(tagManagerId(value))}`)})`
}

export function linkedinSnippet(value: string): string {
  return `w._linkedin_partner_id = ${js(value)}
w._linkedin_data_partner_ids = w._linkedin_data_partner_ids || []
w._linkedin_data_partner_ids.push(${js(value)})
if (!w.lintrk) { w.lintrk = function (a, b) { w.lintrk.q.push([a, b]) }; w.lintrk.q = [] }
load('https://snap.licdn.com/li.lms-analytics/insight.min.js')`
}

export function pinterestSnippet(value: string): string {
  return `if (!w.pintrk) {
  w.pintrk = function () { w.pintrk.queue.push(Array.prototype.slice.call(arguments)) }
  w.pintrk.queue = []; w.pintrk.version = '3.0'
  load('https://s.pinimg.com/ct/core.js')
}
w.pintrk('load', ${js(value)}); w.pintrk('page')`
}

export function quoraSnippet(value: string): string {
  return `if (!w.qp) {
  var n = (w.qp = function () { n.qp ? n.qp.apply(n, arguments) : n.queue.push(arguments) })
  n.queue = []
  load('https://a.quora.com/qevents.js')
}
w.qp('init', ${js(value)}); w.qp('track', 'ViewContent')`
}

export function twitterSnippet(value: string): string {
  return `if (!w.twq) {
  var s = (w.twq = function () { s.exe ? s.exe.apply(s, arguments) : s.queue.push(arguments) })
  s.version = '1.1'; s.queue = []
  load('https://static.ads-twitter.com/uwt.js')
}
w.twq('config', ${js(value)})`
}
