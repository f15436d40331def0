/**
 * The Open Graph page of a link with a social preview, shown to link-preview fetchers (Slack,
 * X, Facebook …) instead of the redirect: `og:` and `twitter:card` tags for the card, a canonical
 * link to the short URL, and for a person who lands there a visible link on (to the destination,
 * or to the short URL of a password link, whose destination is never shown). No script; the
 * image is named in the tags only, not loaded by the page.
 */
import { markup } from './html.js'
import { renderPage, type RenderedPage } from './layout.js'
import { safeHref } from './safe-values.js'

export interface SocialPageInput {
  shortUrl: string
  title: string
  description: string | null
  image: string | null
  /** null: a password link; the page links to the short URL instead. */
  destination: string | null
}

const meta = (property: string, content: string | null) =>
  content === null ? null : markup`<meta property="${property}" content="${content}">\n`

export function socialPage(input: SocialPageInput): RenderedPage {
  const shortUrl = safeHref(input.shortUrl)
  const image = input.image === null ? null : safeHref(input.image)
  const card = image !== null && image !== '#' ? 'summary_large_image' : 'summary'
  const head = markup`<link rel="canonical" href="${shortUrl}">
${meta('og:type', 'website')}${meta('og:url', shortUrl)}${meta('og:title', input.title)}${meta(
    'og:description',
    input.description,
  )}${card === 'summary' ? null : meta('og:image', image)}<meta name="twitter:card" content="${card}">
`
  const onward =
    input.destination === null
      ? markup`<p><a class="button" href="${shortUrl}">Open the link</a></p>
<p class="muted">It asks for a password.</p>`
      : markup`<p><a class="button" href="${safeHref(input.destination)}" rel="noopener noreferrer nofollow">Continue to the page</a></p>
<p class="muted">${input.destination}</p>`
  const body = markup`<h1>${input.title}</h1>
${input.description === null ? null : markup`<p>${input.description}</p>`}
${onward}`
  return renderPage({ title: input.title, head, body })
}
