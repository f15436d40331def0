/**
 * The preview of a link at `/<alias>+`: destination, expiry, redirect rules, targeting and a link to the
 * statistics. Counting nothing, it is sent with 200. The caller must gate it like the redirect:
 * for a password link, show `passwordPage` first; `protected` here only labels the link.
 */
import { markup, type SafeHtml } from './html.js'
import { renderPage, type RenderedPage } from './layout.js'
import { safeDestinationHref, safeHref } from './safe-values.js'

export interface PreviewTargeting {
  /** `country`, `platform`, `language` or `rotation`. */
  type: string
  /** `weight`: a weighted rotation's visits in every 100. */
  entries: { key?: string; value: string; weight?: number }[]
}

export interface PreviewPageInput {
  shortUrl: string
  destination: string
  title: string | null
  /** The expiry instant, already formatted for display (e.g. ISO 8601). */
  endsAt: string | null
  expirationClicks: number | null
  clicks: number
  targeting: PreviewTargeting | null
  /** Redirect rules in order: the conditions in words, and the URL. */
  rules?: { when: string; url: string }[]
  statsUrl: string | null
  protected: boolean
}

const TARGETING_LABELS: Record<string, string> = {
  country: 'By country',
  platform: 'By platform',
  language: 'By language',
  rotation: 'Rotation',
}

/** An outside URL (http(s) or an app link), and no referrer, opener or endorsement. */
function outboundLink(url: string): SafeHtml {
  return markup`<a href="${safeDestinationHref(url)}" rel="noopener noreferrer nofollow">${url}</a>`
}

function expiry(input: PreviewPageInput): SafeHtml {
  const limit = input.expirationClicks !== null && input.expirationClicks > 0
  if (input.endsAt === null && !limit) return markup`Never`
  const date = input.endsAt === null ? null : markup`on <time>${input.endsAt}</time>`
  const left = limit ? Math.max(0, input.expirationClicks! - input.clicks) : 0
  const clicks = limit ? markup`after ${input.expirationClicks} clicks (${left} left)` : null
  return markup`${date}${date && clicks ? ', or ' : ''}${clicks}`
}

function targeting(rules: PreviewTargeting): SafeHtml {
  const label = TARGETING_LABELS[rules.type] ?? rules.type
  const items = rules.entries.map((entry) =>
    entry.weight !== undefined
      ? markup`<li>${outboundLink(entry.value)} (${entry.weight} in 100 visits)</li>\n`
      : entry.key === undefined || entry.key === ''
        ? markup`<li>${outboundLink(entry.value)}</li>\n`
        : markup`<li><code>${entry.key}</code> → ${outboundLink(entry.value)}</li>\n`,
  )
  const weighted = rules.entries.some((entry) => entry.weight !== undefined)
  const note =
    rules.type !== 'rotation'
      ? null
      : weighted
        ? markup`<p class="muted">Visitors are shared out between the destination (the rest of 100 visits) and:</p>`
        : markup`<p class="muted">Visitors take turns between the destination and:</p>`
  return markup`<dt>Targeting</dt>
<dd>${label}${note}<ul>
${items}</ul></dd>`
}

function redirectRules(rules: { when: string; url: string }[]): SafeHtml {
  const items = rules.map((rule) => markup`<li>${rule.when} → ${outboundLink(rule.url)}</li>\n`)
  return markup`<dt>Rules</dt>
<dd><p class="muted">The first that holds, before targeting:</p><ol id="preview-rules">
${items}</ol></dd>
`
}

export function previewPage(input: PreviewPageInput): RenderedPage {
  const rules = input.targeting && input.targeting.entries.length > 0 ? input.targeting : null
  const stats = input.statsUrl
    ? markup`<a class="button secondary" href="${safeHref(input.statsUrl)}">Statistics</a>`
    : null
  const protectedRow = input.protected
    ? markup`<dt>Password</dt><dd>Required to follow the link</dd>\n`
    : null
  const body = markup`<h1>Link preview</h1>
<p class="muted"><code>${input.shortUrl}</code> leads to</p>
${input.title ? markup`<p><strong>${input.title}</strong></p>` : null}
<p>${outboundLink(input.destination)}</p>
<dl>
<dt>Expires</dt><dd>${expiry(input)}</dd>
${protectedRow}${input.rules?.length ? redirectRules(input.rules) : null}${rules ? targeting(rules) : null}
</dl>
<div class="actions">
<a class="button" href="${safeHref(input.shortUrl)}">Open the link</a>${stats}
</div>`
  return renderPage({ title: 'Link preview', body })
}
