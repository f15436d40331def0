/**
 * The quick shorten box of the Overview, the Links page and the Shorten page: one URL field
 * and a button. With htmx the form swaps the box alone (the new short link with Copy and its QR
 * code, or the message); without it, the form posts and the page it came from shows the link.
 */
import { renderToString } from 'preact-render-to-string'
import type { LinkRecord } from '../links/schema.js'
import type { RenderedPage } from '../pages/layout.js'
import { safeHref } from '../pages/safe-values.js'
import { CsrfField } from './components.js'
import { dashboardPage, type Viewer } from './shell.js'

/** Where a box was sent from; a plain post goes back there. */
export type ShortenFrom = 'overview' | 'links' | 'shorten'

export const SHORTEN_BACK: Record<ShortenFrom, string> = {
  overview: '/dashboard',
  links: '/dashboard/links',
  shorten: '/dashboard/shorten',
}

export interface ShortenState {
  /** What the field shows: a refused URL, or the `?url=` of the bookmarklet. */
  value?: string
  /** Messages in people's words. */
  errors?: string[]
  /** The link just made. */
  created?: LinkRecord | null
  autofocus?: boolean
}

/**
 * A URL typed without a scheme (`example.org/x`) gets `https://`; one with a scheme (even one
 * the API refuses, like `mailto:`) is left as it is, for the API's message.
 */
export function withScheme(text: string): string {
  const url = text.trim()
  if (url === '' || /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(url)) return url
  return url.startsWith('//') ? `https:${url}` : `https://${url}`
}

function Created(props: { link: LinkRecord }) {
  const { link } = props
  const base = `/dashboard/links/${link.id}`
  return (
    <div class="shorten-result" id="shorten-result" role="status">
      <a href={`${base}/qr`} class="qr-thumb-link">
        <img
          class="qr-thumb"
          src={`${base}/qr.svg`}
          width={88}
          height={88}
          alt={`QR code of ${link.short_url}`}
        />
      </a>
      <div class="shorten-result-text">
        <p class="muted small">Your short link is ready:</p>
        <p class="shortened">
          <a href={safeHref(link.short_url)} id="shortened-url">
            {link.short_url}
          </a>
        </p>
        <p class="muted small words" id="shortened-destination">
          to {link.url}
        </p>
        <p class="shorten-actions">
          <button
            type="button"
            class="secondary-button copy"
            data-copy={link.short_url}
            aria-label={`Copy ${link.short_url}`}
            hidden
          >
            Copy
          </button>
          <a href={`${base}/qr`} id="shortened-qr">
            QR code
          </a>
          <a href={base} id="shortened-edit">
            Edit
          </a>
          <a href={`${base}/stats`}>Statistics</a>
        </p>
      </div>
    </div>
  )
}

export function ShortenBox(props: ShortenState & { csrf: string; from: ShortenFrom }) {
  const errors = props.errors ?? []
  const failed = errors.length > 0
  // On the Links page the box takes one line: its toolbar's "New link" gives every option.
  const compact = props.from === 'links'
  return (
    <section
      class={compact ? 'panel shorten compact' : 'panel shorten'}
      id="shorten"
      aria-labelledby="shorten-heading"
    >
      {/* The Shorten page's own heading says it already. */}
      <h2
        id="shorten-heading"
        class={props.from === 'shorten' || compact ? 'visually-hidden' : undefined}
      >
        Shorten a link
      </h2>
      <form
        method="post"
        action="/dashboard/shorten"
        class="shorten-form"
        novalidate
        hx-post="/dashboard/shorten"
        hx-target="#shorten"
        hx-swap="outerHTML"
      >
        <CsrfField token={props.csrf} />
        <input type="hidden" name="from" value={props.from} />
        <label for="shorten-url" class={compact ? 'visually-hidden' : undefined}>
          Long URL
        </label>
        <div class="shorten-row">
          <input
            type="text"
            inputMode="url"
            id="shorten-url"
            name="url"
            value={props.value ?? ''}
            placeholder={
              compact ? 'Shorten a long URL: example.org/a/long/page' : 'example.org/a/long/page'
            }
            autocomplete="off"
            autofocus={props.autofocus || failed || undefined}
            aria-invalid={failed ? 'true' : undefined}
            aria-describedby={failed ? 'shorten-url-error' : undefined}
          />
          <button type="submit" id="shorten-submit">
            Shorten
          </button>
        </div>
        {failed ? (
          <p class="field-error" id="shorten-url-error" role="alert">
            {errors.join(' ')}
          </p>
        ) : null}
        {compact ? null : (
          <p class="muted small hint">
            Paste a URL and press Enter. For an alias, a password or an expiry date:{' '}
            <a href="/dashboard/links/new">New link with all options</a>.
          </p>
        )}
      </form>
      {props.created ? <Created link={props.created} /> : null}
    </section>
  )
}

/** The box alone, for htmx (no page around it, so no stylesheet with another nonce). */
export function shortenFragment(props: ShortenState & { csrf: string; from: ShortenFrom }) {
  return renderToString(<ShortenBox {...props} />)
}

/** The Shorten page: where the bookmarklet lands (`?url=` prefilled) and plain posts fail. */
export function shortenPage(viewer: Viewer, state: ShortenState): RenderedPage {
  return dashboardPage({
    title: 'Shorten a link',
    section: 'links',
    viewer,
    children: (
      <>
        <ShortenBox {...state} csrf={viewer.csrf} from="shorten" autofocus />
        <p>
          <a href="/dashboard/links">All links</a>
        </p>
      </>
    ),
  })
}
