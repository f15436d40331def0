/**
 * What the benchmark's visitors are made of: real User-Agent strings (7 platforms, about 15
 * browsers, 3 device types) with rough market weights, 30 languages, 500 referrer hosts and
 * the share of clicks per UTC hour.
 */
const CHROME = 'AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0'
const WEBKIT = 'AppleWebKit/605.1.15 (KHTML, like Gecko)'

export const AGENTS: { ua: string; weight: number }[] = [
  { weight: 30, ua: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) ${CHROME} Safari/537.36` },
  {
    weight: 8,
    ua: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) ${CHROME} Safari/537.36 Edg/131.0.0.0`,
  },
  {
    weight: 5,
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  },
  {
    weight: 2,
    ua: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) ${CHROME} Safari/537.36 OPR/115.0.0.0`,
  },
  {
    weight: 1,
    ua: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) ${CHROME} YaBrowser/24.10.0.0 Safari/537.36`,
  },
  {
    weight: 1,
    ua: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) ${CHROME} Safari/537.36 Vivaldi/7.0`,
  },
  { weight: 0.5, ua: 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko' },
  {
    weight: 7,
    ua: `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) ${WEBKIT} Version/18.1 Safari/605.1.15`,
  },
  { weight: 5, ua: `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) ${CHROME} Safari/537.36` },
  {
    weight: 1,
    ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0',
  },
  {
    weight: 14,
    ua: `Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) ${WEBKIT} Version/18.1 Mobile/15E148 Safari/604.1`,
  },
  {
    weight: 3,
    ua: `Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) ${WEBKIT} CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1`,
  },
  {
    weight: 2,
    ua: `Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) ${WEBKIT} Mobile/15E148 Instagram 334.0.4.32.98 (iPhone14,2; iOS 17_5; en_US; en; scale=3.00; 1170x2532; 612223016)`,
  },
  {
    weight: 3,
    ua: `Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) ${WEBKIT} Version/17.6 Mobile/15E148 Safari/604.1`,
  },
  { weight: 14, ua: `Mozilla/5.0 (Linux; Android 10; K) ${CHROME} Mobile Safari/537.36` },
  {
    weight: 4,
    ua: `Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36`,
  },
  { weight: 1, ua: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0' },
  {
    weight: 2,
    ua: `Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/127.0.6533.103 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/477.0.0.49.81;]`,
  },
  {
    weight: 1,
    ua: `Mozilla/5.0 (Linux; U; Android 13; en-US; SM-A145F Build/TP1A.220624.014) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.80 UCBrowser/13.7.0.1316 Mobile Safari/537.36`,
  },
  { weight: 2, ua: `Mozilla/5.0 (Linux; Android 13; SM-X700) ${CHROME} Safari/537.36` },
  {
    weight: 1,
    ua: `Mozilla/5.0 (Linux; Android 12; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/131.1.1 like Chrome/131.0.0.0 Safari/537.36`,
  },
  {
    weight: 1,
    ua: `Mozilla/5.0 (Linux; Android 13; 2201117TG) ${CHROME} Mobile Safari/537.36 XiaoMi/MiuiBrowser/14.10.1-gn`,
  },
  {
    weight: 1.5,
    ua: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  },
  { weight: 1.5, ua: `Mozilla/5.0 (X11; Linux x86_64) ${CHROME} Safari/537.36` },
  {
    weight: 0.5,
    ua: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chromium/131.0.0.0 Chrome/131.0.0.0 Safari/537.36`,
  },
  { weight: 1, ua: `Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) ${CHROME} Safari/537.36` },
]

const CODES =
  'en de fr es pt it nl pl ru tr ja zh ko ar hi id vi th sv da fi no cs hu ro el uk he fa ms'.split(
    ' ',
  )
const REGIONS: Record<string, string> = { en: 'US', pt: 'BR', zh: 'CN', es: 'ES', fr: 'FR' }

export const LANGUAGES = CODES.map((code, i) => ({
  weight: 1 / (i + 1),
  header: `${code}-${REGIONS[code] ?? code.toUpperCase()},${code};q=0.9,en;q=0.8`,
}))

const BIG = ['www.google.com', 't.co', 'www.facebook.com', 'l.instagram.com', 'www.linkedin.com']
const MORE = ['news.ycombinator.com', 'www.reddit.com', 'duckduckgo.com', 'www.bing.com']

export const REFERRERS = [
  ...BIG,
  ...MORE,
  ...Array.from({ length: 491 }, (_, i) => `site-${i + 1}.example.${['com', 'org', 'net'][i % 3]}`),
]

/** Share of the day's clicks per UTC hour: quiet at night, busy in the evening. */
export const HOURS = [
  2, 1.5, 1, 1, 1, 1.5, 2.5, 4, 5, 5.5, 6, 6, 6.5, 6.5, 6, 6, 6.5, 7, 7.5, 7.5, 7, 6, 4.5, 3,
]
