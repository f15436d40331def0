/**
 * When failed deliveries are tried again: after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h
 * (Standard Webhooks' usual schedule): eight attempts over about 27.6 hours, then the
 * delivery is marked failed. A webhook whose attempts have all failed for SWITCH_OFF_AFTER_MS
 * (five days, with no success in between) is switched off, and says why.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
]

export const SWITCH_OFF_AFTER_MS = 5 * 86_400_000

/**
 * Every attempt is logged; the last KEEP_ATTEMPTS of each webhook are kept (older ones are
 * pruned as new ones are written), at most 30 days like their deliveries.
 */
export const KEEP_ATTEMPTS = 200

/** Delivered and failed deliveries stay in the delivery log this long (30 days). */
export const KEEP_DELIVERIES_MS = 30 * 86_400_000
