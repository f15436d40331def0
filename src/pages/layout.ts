/**
 * The shared layout and the one way a page is rendered: a fresh nonce, the document around the
 * page's body (viewport, noindex, the inline stylesheet, an optional inline script, all with the
 * nonce), and the headers with the matching Content-Security-Policy.
 */
import {
  contentSecurityPolicy,
  newNonce,
  NO_EXTERNAL_HOSTS,
  pageHeaders,
  type ExternalHosts,
  type PageReferrerPolicy,
  type SandboxToken,
} from './csp.js'
import { markup, raw, type SafeHtml } from './html.js'
import { STYLESHEET } from './styles.js'

/** A page ready to send; the caller picks the HTTP status. */
export interface RenderedPage {
  html: string
  headers: Record<string, string>
}

export interface PageParts {
  title: string
  body: SafeHtml
  /** Extra `<head>` markup (the pixel page's meta refresh). */
  head?: SafeHtml
  /** Inline JavaScript run at the end of `<body>`; built only from literals and `scriptJson`. */
  script?: string
  hosts?: ExternalHosts
  referrerPolicy?: PageReferrerPolicy
  /** A wider card, for pages with charts and tables (the stats page). */
  wide?: boolean
  /**
   * Where a form's submission may end up besides this origin (`form-action`): browsers apply
   * it to every redirect that follows the submission, not only to the form's own action.
   */
  formTargets?: readonly string[]
  /** Run the page in a sandbox without this origin (see `contentSecurityPolicy`). */
  sandbox?: readonly SandboxToken[]
}

function inlineScript(code: string, nonce: string): SafeHtml {
  if (/<\/script|<!--/i.test(code)) {
    throw new Error('Inline script must not contain </script or <!--')
  }
  return markup`<script nonce="${nonce}">\n${raw(code)}\n</script>\n`
}

export function renderPage(parts: PageParts): RenderedPage {
  const nonce = newNonce()
  const script = parts.script === undefined ? null : inlineScript(parts.script, nonce)
  const page = markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${parts.title}</title>
<link rel="icon" href="data:,">
${parts.head}<style nonce="${nonce}">
${raw(STYLESHEET)}
</style>
</head>
<body>
<main${parts.wide ? raw(' class="wide"') : null}>
${parts.body}
</main>
${script}</body>
</html>
`
  const csp = contentSecurityPolicy(nonce, {
    script: script !== null,
    hosts: parts.hosts ?? NO_EXTERNAL_HOSTS,
    ...(parts.formTargets ? { formTargets: parts.formTargets } : {}),
    ...(parts.sandbox ? { sandbox: parts.sandbox } : {}),
  })
  return { html: page.text, headers: pageHeaders(csp, parts.referrerPolicy ?? 'same-origin') }
}
