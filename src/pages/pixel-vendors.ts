/**
 * The pixel vendors as data: for each pixel type, the name shown on the consent step, the hosts
 * its snippet needs per CSP directive (the pixel page allows exactly these, for the pixels it
 * carries), the snippet, and the vendor's documented beacon. A beacon is rendered as an `<img>`
 * where the snippet's own script URL does not carry the pixel's value, so every pixel makes a
 * request naming its value at once (and without JavaScript too).
 */
import type { PixelType } from '../pixels/types.js'
import type { ExternalHosts } from './csp.js'
import * as snippets from './pixel-snippets.js'

export interface PixelVendor {
  name: string
  hosts: ExternalHosts
  /** Code run in the pixel page's script; see `pixel-snippets.ts`. */
  snippet: (value: string) => string
  /** The vendor's no-JavaScript image beacon URL, or `null` where the script URL has the value. */
  beacon: ((value: string) => string) | null
  /** A documented `<noscript>` iframe (Tag Manager only). */
  noscriptFrame: ((value: string) => string) | null
}

const q = encodeURIComponent

export const PIXEL_VENDORS: Record<PixelType, PixelVendor> = {
  adroll: {
    name: 'AdRoll',
    hosts: {
      script: ['s.adroll.com'],
      img: ['d.adroll.com'],
      connect: ['d.adroll.com'],
      frame: [],
    },
    snippet: snippets.adrollSnippet,
    beacon: null,
    noscriptFrame: null,
  },
  bing: {
    name: 'Microsoft Advertising (Bing)',
    hosts: {
      script: ['bat.bing.com'],
      img: ['bat.bing.com'],
      connect: ['bat.bing.com'],
      frame: [],
    },
    snippet: snippets.bingSnippet,
    beacon: (v) => `https://bat.bing.com/action/0?ti=${q(v)}&Ver=2`,
    noscriptFrame: null,
  },
  facebook: {
    name: 'Meta (Facebook)',
    hosts: {
      script: ['connect.facebook.net'],
      img: ['www.facebook.com'],
      connect: ['www.facebook.com'],
      frame: [],
    },
    snippet: snippets.facebookSnippet,
    beacon: (v) => `https://www.facebook.com/tr?id=${q(v)}&ev=PageView&noscript=1`,
    noscriptFrame: null,
  },
  'google-ads': {
    name: 'Google Ads',
    hosts: {
      script: [
        'www.googletagmanager.com',
        'www.googleadservices.com',
        'googleads.g.doubleclick.net',
        'www.google.com',
      ],
      img: [
        'www.googletagmanager.com',
        'www.googleadservices.com',
        'googleads.g.doubleclick.net',
        'www.google.com',
      ],
      connect: ['www.googleadservices.com', 'googleads.g.doubleclick.net', 'www.google.com'],
      frame: ['td.doubleclick.net'],
    },
    snippet: snippets.googleAdsSnippet,
    beacon: null,
    noscriptFrame: null,
  },
  'google-analytics': {
    name: 'Google Analytics',
    hosts: {
      script: ['*.googletagmanager.com'],
      img: ['*.google-analytics.com', '*.googletagmanager.com'],
      connect: ['*.google-analytics.com', '*.analytics.google.com', '*.googletagmanager.com'],
      frame: [],
    },
    snippet: snippets.googleAnalyticsSnippet,
    beacon: null,
    noscriptFrame: null,
  },
  'google-tag-manager': {
    name: 'Google Tag Manager',
    hosts: {
      script: ['www.googletagmanager.com'],
      img: ['www.googletagmanager.com'],
      connect: ['www.googletagmanager.com'],
      frame: ['www.googletagmanager.com'],
    },
    snippet: snippets.tagManagerSnippet,
    beacon: null,
    noscriptFrame: (v) =>
      `https://www.googletagmanager.com/ns.html?id=${q(snippets.tagManagerId(v))}`,
  },
  linkedin: {
    name: 'LinkedIn',
    hosts: {
      script: ['snap.licdn.com'],
      img: ['px.ads.linkedin.com'],
      connect: ['px.ads.linkedin.com'],
      frame: [],
    },
    snippet: snippets.linkedinSnippet,
    beacon: (v) => `https://px.ads.linkedin.com/collect/?pid=${q(v)}&fmt=gif`,
    noscriptFrame: null,
  },
  pinterest: {
    name: 'Pinterest',
    hosts: {
      script: ['s.pinimg.com'],
      img: ['ct.pinterest.com'],
      connect: ['ct.pinterest.com'],
      frame: [],
    },
    snippet: snippets.pinterestSnippet,
    beacon: (v) => `https://ct.pinterest.com/v3/?event=init&tid=${q(v)}&noscript=1`,
    noscriptFrame: null,
  },
  quora: {
    name: 'Quora',
    hosts: { script: ['a.quora.com'], img: ['q.quora.com'], connect: ['q.quora.com'], frame: [] },
    snippet: snippets.quoraSnippet,
    beacon: (v) => `https://q.quora.com/_/ad/${q(v)}/pixel?tag=ViewContent&noscript=1`,
    noscriptFrame: null,
  },
  twitter: {
    name: 'X (Twitter)',
    hosts: {
      script: ['static.ads-twitter.com'],
      img: ['analytics.twitter.com', 't.co'],
      connect: ['analytics.twitter.com', 't.co'],
      frame: [],
    },
    snippet: snippets.twitterSnippet,
    beacon: (v) =>
      `https://analytics.twitter.com/i/adsct?txn_id=${q(v)}&p_id=Twitter&tw_sale_amount=0&tw_order_quantity=0`,
    noscriptFrame: null,
  },
}
