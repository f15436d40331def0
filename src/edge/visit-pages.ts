/**
 * The pages a visit can end on, rendered from the redirect engine's facts. The engine decides
 * which page with which facts (redirects/outcome.ts); this is where the HTTP edge turns them
 * into HTML and headers with the page library (src/pages/, which knows nothing of the engine).
 */
import {
  linkDisabledPage,
  linkExpiredPage,
  notFoundPage,
  passwordPage,
  pixelPage,
  previewPage,
  socialPage,
  statsPrivatePage,
  tooManyAttemptsPage,
  type RenderedPage,
} from '../pages/index.js'
import type { VisitPage } from '../redirects/outcome.js'

export function renderVisitPage(facts: VisitPage): RenderedPage {
  switch (facts.page) {
    case 'not-found':
      return notFoundPage()
    case 'disabled':
      return linkDisabledPage()
    case 'expired':
      return linkExpiredPage()
    case 'stats-private':
      return statsPrivatePage()
    case 'too-many-attempts':
      return tooManyAttemptsPage({
        retryAfterSeconds: facts.retryAfterSeconds,
        reason: facts.reason,
      })
    case 'password': {
      const { alias, formAction, kind, error } = facts
      return passwordPage(
        error === undefined ? { alias, formAction, kind } : { alias, formAction, kind, error },
      )
    }
    case 'preview':
      return previewPage(facts)
    case 'social':
      return socialPage(facts)
    case 'pixels':
      return pixelPage(facts)
  }
}
