/**
 * Link-preview fetchers, by the User-Agent strings they really send (each with where it is
 * published or was recorded), against people, in-app browsers and other bots.
 */
import { describe, expect, it } from 'vitest'
import { isBot } from '../../src/visitors/bot.js'
import { isPreviewFetcher, PREVIEW_FETCHERS } from '../../src/visitors/preview-fetchers.js'
import { BOTS, BROWSERS } from './user-agent-samples.js'

/** [fetcher, User-Agent, source] */
const FETCHERS: [string, string, string][] = [
  [
    'Slack link expanding',
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Slack API documentation, api.slack.com/robots',
  ],
  [
    'Slack image proxy',
    'Slack-ImgProxy (+https://api.slack.com/robots)',
    'Slack API documentation, api.slack.com/robots',
  ],
  [
    'Slackbot',
    'Slackbot 1.0 (+https://api.slack.com/robots)',
    'Slack API documentation, api.slack.com/robots',
  ],
  ['X / Twitter', 'Twitterbot/1.0', 'X Developer Platform, Cards troubleshooting'],
  [
    'Facebook',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Meta for Developers, The Facebook Crawler',
  ],
  ['Facebot', 'Facebot', 'Meta for Developers, The Facebook Crawler'],
  [
    "iMessage's link preview",
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
    'isbot fixtures (omrilotan/isbot), recorded from iMessage',
  ],
  [
    'Applebot',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
    'Apple Support, About Applebot',
  ],
  [
    'LinkedIn',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
    'isbot fixtures (omrilotan/isbot)',
  ],
  ['WhatsApp', 'WhatsApp/2.23.20.0 A', 'isbot fixtures (omrilotan/isbot)'],
  [
    'Discord',
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    'isbot fixtures (omrilotan/isbot)',
  ],
  ['Telegram', 'TelegramBot (like TwitterBot)', 'isbot fixtures (omrilotan/isbot)'],
  [
    'Pinterest',
    'Mozilla/5.0 (compatible; Pinterestbot/1.0; +http://www.pinterest.com/bot.html)',
    'Pinterest Help, pinterest.com/bot.html',
  ],
  [
    'Pinterest (older fetcher)',
    'Pinterest/0.2 (+http://www.pinterest.com/bot.html)',
    'Pinterest Help, pinterest.com/bot.html',
  ],
  [
    'Reddit',
    'Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)',
    'isbot fixtures (omrilotan/isbot)',
  ],
  [
    'Skype',
    'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com',
    'isbot fixtures (omrilotan/isbot)',
  ],
  [
    'Microsoft Teams',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MicrosoftPreview/2.0; +https://aka.ms/MicrosoftPreview) Chrome/120.0.0.0 Safari/537.36',
    'Bing Webmaster Help, Which crawlers does Bing use',
  ],
  [
    'Mastodon',
    'http.rb/5.1.1 (Mastodon/4.2.1; +https://mastodon.social/)',
    'Mastodon source, app/lib/request.rb',
  ],
  [
    'Bluesky',
    'Mozilla/5.0 (compatible; Bluesky Cardyb/1.1; +mailto:support@bsky.app)',
    'Bluesky source, bluesky-social/cardyb',
  ],
  [
    'Snapchat',
    'Snap URL Preview Service; bot; snapchat; https://developers.snap.com/robots',
    'Snap for Developers, developers.snap.com/robots',
  ],
  [
    'VK',
    'Mozilla/5.0 (compatible; vkShare; +http://vk.com/dev/Share)',
    'VK for Developers, vk.com/dev/Share',
  ],
  [
    'Embedly',
    'Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)',
    'Embedly support, support.embed.ly',
  ],
  [
    'Iframely',
    'Iframely/1.3.1 (+https://iframely.com/docs/about)',
    'Iframely documentation, iframely.com/docs/about',
  ],
]

describe('link-preview fetchers', () => {
  it.each(FETCHERS)('%s is a preview fetcher (and a bot)', (_name, ua) => {
    expect(isPreviewFetcher(ua)).toBe(true)
    expect(isBot(ua)).toBe(true)
  })

  it('every token of the list is exercised by a real User-Agent above', () => {
    const unmatched = PREVIEW_FETCHERS.filter(
      ({ token }) => !FETCHERS.some(([, ua]) => ua.toLowerCase().includes(token.toLowerCase())),
    )
    expect(unmatched).toEqual([])
  })

  it.each(Object.entries(BROWSERS))(
    '%s (a person, in-app browsers included) is not a preview fetcher',
    (_name, ua) => {
      expect(isPreviewFetcher(ua)).toBe(false)
    },
  )

  const SEARCH_AND_SCRIPTS = [
    'googlebot',
    'googlebotSmartphone',
    'bingbot',
    'headlessChrome',
    'curl',
    'wget',
    'pythonRequests',
    'goHttpClient',
    'axios',
    'postman',
  ] as const

  it.each(SEARCH_AND_SCRIPTS)('%s is a bot, not a preview fetcher (it is redirected)', (name) => {
    expect(isBot(BOTS[name])).toBe(true)
    expect(isPreviewFetcher(BOTS[name])).toBe(false)
  })

  const others = Object.keys(BOTS).filter(
    (name) => !(SEARCH_AND_SCRIPTS as readonly string[]).includes(name),
  ) as (keyof typeof BOTS)[]

  it.each(others)('the shared bot sample %s is a preview fetcher', (name) => {
    expect(isPreviewFetcher(BOTS[name])).toBe(true)
  })

  it.each([
    [
      'Facebook app on iOS',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/442.0.0.38.111;FBBV/549045563;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.1;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]',
    ],
    [
      'LinkedIn app on iOS',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.29.1',
    ],
    [
      'Pinterest app on iOS',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]',
    ],
    [
      'Snapchat app on iOS',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/12.60.0.42 (like Safari/8617.1.17.10.9, panda)',
    ],
    [
      'X app on iOS',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.18',
    ],
  ])('%s is a person, not a preview fetcher', (_name, ua) => {
    expect(isPreviewFetcher(ua)).toBe(false)
  })

  it.each([undefined, null, '', '   '])('a missing or blank User-Agent (%j) is not one', (ua) => {
    expect(isPreviewFetcher(ua)).toBe(false)
  })

  it('reads only the first 512 characters', () => {
    expect(isPreviewFetcher(BROWSERS.chromeWindows + ' '.repeat(600) + 'Twitterbot/1.0')).toBe(
      false,
    )
    expect(isPreviewFetcher('Twitterbot/1.0' + ' '.repeat(1_000_000))).toBe(true)
  })
})
