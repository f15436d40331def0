/**
 * What the service counts for its operators, as the rest of the code sees it: a few methods and
 * a default that counts nothing. src/metrics/ implements it with prom-client; the composition
 * root hands that one out when METRICS_PORT is set.
 */

/** How a visit of a short link ended (the `outcome` label of the redirect metrics). */
export const VISIT_OUTCOMES = [
  'redirected',
  'bot',
  'not_found',
  'expired',
  'password',
  'preview',
  'limited',
  'error',
] as const
export type VisitOutcome = (typeof VISIT_OUTCOMES)[number]

/** A webhook delivery attempt: delivered, due again later, or given up on. */
export type DeliveryOutcome = 'delivered' | 'retried' | 'failed'

export interface Metrics {
  /** A short link answered, `seconds` after its request arrived. */
  visit(outcome: VisitOutcome, seconds: number): void
  /** A request the web framework answered: its route pattern (never the raw URL) and status. */
  httpRequest(method: string, route: string, status: number): void
  webhookDelivery(outcome: DeliveryOutcome): void
  /** Rows of an import written with this outcome (created, skipped, …). */
  importRows(outcome: string, count: number): void
}

export const NO_METRICS: Metrics = {
  visit() {},
  httpRequest() {},
  webhookDelivery() {},
  importRows() {},
}
