/**
 * The one way a dashboard page is rendered: typed components (Preact, rendered to a string on
 * the server; every text and attribute escaped by the renderer), inside a document with a fresh
 * nonce and the Content-Security-Policy of src/pages/csp.ts. Signed-in pages load the small
 * enhancement library (htmx, served by the service itself) with the nonce; its configuration
 * turns off everything that would need `unsafe-eval` or inline styles.
 */
import type { ComponentChildren } from 'preact'
import { renderToString } from 'preact-render-to-string'
import { contentSecurityPolicy, newNonce, NO_EXTERNAL_HOSTS, pageHeaders } from '../pages/csp.js'
import type { RenderedPage } from '../pages/layout.js'
import { STYLESHEET } from '../pages/styles.js'
import { HTMX_PATH } from './assets.js'
import { DASHBOARD_SCRIPT_PATH } from './dashboard-script.js'
import { DASHBOARD_STYLESHEET } from './styles.js'

/**
 * htmx without eval, inline indicator styles, script tags in swapped content or a history cache;
 * a 422 answer (a form's messages) is swapped in like a 200, other errors are not; an element
 * swapped in settles without a `style` attribute copied onto it (the CSP refuses inline styles).
 */
export const HTMX_CONFIG = JSON.stringify({
  responseHandling: [
    { code: '204', swap: false },
    { code: '[23]..', swap: true },
    { code: '422', swap: true },
    { code: '[45]..', swap: false, error: true },
  ],
  attributesToSettle: ['class', 'width', 'height'],
  allowEval: false,
  allowScriptTags: false,
  includeIndicatorStyles: false,
  historyCacheSize: 0,
  selfRequestsOnly: true,
})

export interface DocumentParts {
  title: string
  /** `card`: one centred card (sign-in, notices); `app`: the signed-in layout. */
  shape: 'card' | 'app'
  /** `https`: images from any https URL too (see `contentSecurityPolicy`). */
  images?: 'https'
  children: ComponentChildren
}

function Document(props: DocumentParts & { nonce: string }) {
  const app = props.shape === 'app'
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <meta name="referrer" content="same-origin" />
        {app ? <meta name="htmx-config" content={HTMX_CONFIG} /> : null}
        <title>{`${props.title} · slink`}</title>
        <link rel="icon" href="data:," />
        <style
          nonce={props.nonce}
          dangerouslySetInnerHTML={{ __html: `${STYLESHEET}\n${DASHBOARD_STYLESHEET}` }}
        />
        {app ? <script nonce={props.nonce} src={HTMX_PATH} defer /> : null}
        {/* Not deferred: it sets the chosen theme before the page is first drawn. */}
        {app ? <script nonce={props.nonce} src={DASHBOARD_SCRIPT_PATH} /> : null}
      </head>
      <body class={app ? 'app' : undefined}>{props.children}</body>
    </html>
  )
}

export function renderDocument(parts: DocumentParts): RenderedPage {
  const nonce = newNonce()
  const html = `<!doctype html>\n${renderToString(<Document {...parts} nonce={nonce} />)}\n`
  const csp = contentSecurityPolicy(nonce, {
    script: parts.shape === 'app',
    hosts: NO_EXTERNAL_HOSTS,
    connectSelf: parts.shape === 'app',
    ...(parts.images === 'https' ? { httpsImages: true } : {}),
  })
  return { html, headers: pageHeaders(csp, 'same-origin') }
}
