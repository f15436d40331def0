/**
 * The outcome label of a visit, from the engine's answer: a redirect the engine sends elsewhere
 * says why (expired, not found); otherwise one with a click is a redirect and one without is a
 * bot's (a HEAD request counts no click either, but is a redirect). The social page a
 * link-preview fetcher is shown is a bot's too.
 */
import type { Visit } from '../redirects/engine.js'
import type { VisitOutcome } from '../shared/metrics.js'

export function visitOutcome(visit: Visit, head: boolean): VisitOutcome {
  const { outcome } = visit
  if (outcome.kind === 'redirect') {
    return outcome.instead ?? (visit.click !== null || head ? 'redirected' : 'bot')
  }
  switch (outcome.page.page) {
    case 'pixels':
      return 'redirected'
    case 'not-found':
    case 'disabled':
    case 'stats-private':
      return 'not_found'
    case 'expired':
      return 'expired'
    case 'password':
      return 'password'
    case 'preview':
      return 'preview'
    case 'social':
      return 'bot'
    case 'too-many-attempts':
      return 'limited'
  }
}
