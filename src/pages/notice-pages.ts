/**
 * The short notice pages the redirect engine shows instead of a redirect. Each says what the
 * caller should send it with: not found 404, disabled 404, expired 410, too many attempts 429
 * (with `Retry-After`), private statistics 403.
 */
import { markup } from './html.js'
import { renderPage, type RenderedPage } from './layout.js'

function notice(title: string, message: string, hint?: string): RenderedPage {
  const body = markup`<h1>${title}</h1>
<p>${message}</p>
${hint ? markup`<p class="muted">${hint}</p>` : null}`
  return renderPage({ title, body })
}

/** Send with 404 (or the domain's `not_found_page` redirect instead). */
export function notFoundPage(): RenderedPage {
  return notice('Link not found', 'There is no link at this address.', 'Check it for typos.')
}

/** Send with 404. */
export function linkDisabledPage(): RenderedPage {
  return notice('Link disabled', 'This link has been disabled by its owner.')
}

/** Send with 410 (or redirect to the link's `expiration_url` instead). */
export function linkExpiredPage(): RenderedPage {
  return notice('Link expired', 'This link has expired and no longer leads anywhere.')
}

/** Send with 403. */
export function statsPrivatePage(): RenderedPage {
  return notice('Statistics private', 'The statistics of this link are private.')
}

/** `45` → `45 seconds`, `60` → `1 minute`, `150` → `3 minutes` (rounded up). */
export function waitText(seconds: number): string {
  const s = Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : 60
  if (s < 60) return s === 1 ? '1 second' : `${s} seconds`
  const minutes = Math.ceil(s / 60)
  return minutes === 1 ? '1 minute' : `${minutes} minutes`
}

/**
 * Send with 429 and `Retry-After: <retryAfterSeconds>`: too many wrong passwords for one link
 * (`passwords`, the default) or too many lookups of links that do not exist (`lookups`).
 */
export function tooManyAttemptsPage(input: {
  retryAfterSeconds: number
  reason?: 'passwords' | 'lookups'
}): RenderedPage {
  return notice(
    'Too many attempts',
    input.reason === 'lookups'
      ? 'Too many addresses that lead nowhere were tried.'
      : 'Too many wrong passwords were tried for this link.',
    `Please try again in ${waitText(input.retryAfterSeconds)}.`,
  )
}

const ERROR_TITLES: Record<number, string> = {
  400: 'Bad request',
  405: 'Method not allowed',
  413: 'Request too large',
  414: 'Address too long',
  415: 'Unsupported request',
  431: 'Request headers too large',
}

/** Any other failure of a visitor-facing request, sent with `status`. */
export function errorPage(status: number): RenderedPage {
  if (status === 503) return notice('Temporarily unavailable', 'Please try again in a moment.')
  if (status === 429) return notice('Too many requests', 'Please wait a minute and try again.')
  if (status >= 500) return notice('Something went wrong', 'Please try again in a moment.')
  return notice(ERROR_TITLES[status] ?? 'Bad request', 'This request could not be answered.')
}
