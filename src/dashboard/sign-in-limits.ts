/** Limits of failed sign-ins, per account and per client address (built in server.ts). */
import type { AttemptLimiter } from '../limits/attempt-limiter.js'

export interface SignInLimits {
  /** Failed sign-ins per account (the email, lower-cased). */
  accounts: AttemptLimiter
  /** Failed sign-ins per client address. */
  addresses: AttemptLimiter
}

/** Failed sign-ins allowed in a 15-minute window: per account, and per client address. */
export const SIGN_IN_LIMITS = { accounts: 5, addresses: 20, windowMs: 15 * 60 * 1000 }
