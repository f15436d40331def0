/**
 * The password form of a protected link (`kind: 'link'`) or of a link's statistics
 * (`kind: 'stats'`). It never shows the destination. The caller sends it with 200, also when
 * re-showing it with `error` after a wrong password.
 */
import { DEFAULT_APP_URL_SCHEMES } from '../shared/destination-url.js'
import { markup } from './html.js'
import { renderPage, type RenderedPage } from './layout.js'
import { safeFormAction } from './safe-values.js'

export interface PasswordPageInput {
  alias: string
  /** Where the form POSTs (a path on this origin, e.g. `/abc` or `/abc/stats`). */
  formAction: string
  /** Shown when the last attempt was wrong. */
  error?: string
  kind: 'link' | 'stats'
}

const TEXT = {
  link: {
    title: 'Password required',
    lead: 'This link is protected by a password. Enter it to continue.',
    button: 'Continue',
  },
  stats: {
    title: 'Statistics password required',
    lead: 'The statistics of this link are protected by a password. Enter it to see them.',
    button: 'Show statistics',
  },
} as const

export function passwordPage(input: PasswordPageInput): RenderedPage {
  const text = TEXT[input.kind]
  const error = input.error ? markup`<p class="error" role="alert">${input.error}</p>\n` : null
  const body = markup`<h1>${text.title}</h1>
<p class="muted">Link <code>${input.alias}</code></p>
<p>${text.lead}</p>
${error}<form method="post" action="${safeFormAction(input.formAction)}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password"
  required autofocus>
<div class="actions"><button type="submit">${text.button}</button></div>
</form>`
  // A right link password redirects back to the short URL, which redirects to the destination
  // on its own host. Chromium checks form-action on every redirect after a submission, so the
  // link's form must allow any web address; naming the destination's host instead would reveal
  // it before the password is given. App links of the default schemes are allowed the same way
  // (the same list for every link: it says nothing of this one). The statistics form only ever
  // returns to this origin.
  const formTargets =
    input.kind === 'link'
      ? ['https:', 'http:', ...DEFAULT_APP_URL_SCHEMES.map((scheme) => `${scheme}:`)]
      : undefined
  return renderPage({ title: text.title, body, ...(formTargets ? { formTargets } : {}) })
}
