/**
 * Whether a request comes from a link-preview fetcher: the robot a chat app or social network
 * sends to draw a card for a link someone posted. A link with a social preview answers them its
 * Open Graph page instead of the redirect (docs/redirects.md, "Social previews").
 *
 * The one list of them, matched case-insensitively anywhere in the first 512 characters of the
 * User-Agent. Each token names a fetcher, never an app's own browser: Facebook's, Instagram's,
 * LinkedIn's, Pinterest's and Snapchat's in-app browsers say `FBAN`, `Instagram`, `LinkedInApp`,
 * `[Pinterest/…]` and `Snapchat/…`, and are people. Search-engine crawlers (Googlebot, bingbot)
 * are not in it: they follow the redirect, as every other bot does.
 */
import { userAgentHead } from './user-agent.js'

/** Each fetcher's User-Agent token, with the service it draws cards for. */
export const PREVIEW_FETCHERS: readonly { service: string; token: string }[] = [
  { service: 'Slack', token: 'Slackbot' },
  { service: 'Slack (images)', token: 'Slack-ImgProxy' },
  { service: 'X / Twitter', token: 'Twitterbot' },
  { service: 'Facebook, Messenger, Instagram, LINE, KakaoTalk', token: 'facebookexternalhit' },
  { service: 'Facebook', token: 'Facebot' },
  { service: 'LinkedIn', token: 'LinkedInBot' },
  { service: 'WhatsApp (and Signal, which sends the same name)', token: 'WhatsApp' },
  { service: 'Discord', token: 'Discordbot' },
  { service: 'Telegram', token: 'TelegramBot' },
  { service: 'Apple (iMessage, Siri, Spotlight)', token: 'Applebot' },
  { service: 'Pinterest', token: 'Pinterestbot' },
  { service: 'Pinterest (older fetcher)', token: 'Pinterest/0.' },
  { service: 'Reddit', token: 'redditbot' },
  { service: 'Skype', token: 'SkypeUriPreview' },
  { service: 'Microsoft Teams, Outlook', token: 'MicrosoftPreview' },
  { service: 'Mastodon', token: 'Mastodon/' },
  { service: 'Bluesky', token: 'Cardyb' },
  { service: 'Snapchat', token: 'Snap URL Preview Service' },
  { service: 'VK', token: 'vkShare' },
  { service: 'Embedly', token: 'Embedly' },
  { service: 'Iframely', token: 'Iframely' },
]

const escape = (token: string) => token.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

const FETCHER = new RegExp(PREVIEW_FETCHERS.map((f) => escape(f.token)).join('|'), 'i')

export function isPreviewFetcher(userAgent: string | null | undefined): boolean {
  return typeof userAgent === 'string' && FETCHER.test(userAgentHead(userAgent))
}
