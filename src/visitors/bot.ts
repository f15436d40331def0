/**
 * Whether a request comes from a bot: crawlers, link-preview fetchers (Slackbot,
 * facebookexternalhit, Twitterbot, WhatsApp, Discordbot, TelegramBot, LinkedInBot …), headless
 * browsers and HTTP libraries (curl, Wget, python-requests, Go-http-client, axios …), as `isbot`
 * lists them. Bots get the main URL and are not counted (contract §5 step 5).
 *
 * Decided here, where the contract is silent:
 * - Command-line tools and HTTP libraries count as bots, as isbot says: nobody clicks a link
 *   with curl, and counting them would let any script inflate a link's clicks.
 * - A missing, empty or blank User-Agent is a bot. Every browser sends one; a request without it
 *   is a script, and clicks should count people.
 * - Only the first 512 characters are read (isbot takes about 4 µs on a real header).
 */
import { isbot } from 'isbot'
import { userAgentHead } from './user-agent.js'

const MEMO_SIZE = 5000
const memo = new Map<string, boolean>()

/** Remembers the answers for recent User-Agents: real traffic repeats a few thousand of them. */
export function isBot(userAgent: string | null | undefined): boolean {
  if (!userAgent || userAgent.trim() === '') return true
  const head = userAgentHead(userAgent)
  const known = memo.get(head)
  if (known !== undefined) return known
  const bot = isbot(head)
  if (memo.size >= MEMO_SIZE) memo.clear()
  memo.set(head, bot)
  return bot
}
