/**
 * Limits of failed password checks on the dashboard (built in composition/app.ts, counted where the other
 * limits are). An account is limited per address that failed on it, never for everyone: five
 * wrong passwords from one address block that address for that account, while the owner
 * signs in from theirs. Each address is limited over every account it tries, and each check
 * costs a slow hash. See docs/dashboard.md, "Sign-in limits and one-time links".
 */
import type { AttemptLimiter } from '../limits/attempt-limiter.js'
import { sha256 } from '../shared/secrets.js'

export interface SignInLimits {
  /** Failed sign-ins per account and client address (`account:<email>:<address>`). */
  accounts: AttemptLimiter
  /** Failed sign-ins per client address, whatever the account. */
  addresses: AttemptLimiter
  /** Wrong current passwords on the Account page, per user. */
  passwordChanges: AttemptLimiter
}

/**
 * Failures allowed in a 15-minute window: per account and address, per address, and per user
 * on the Account page's password form.
 */
export const SIGN_IN_LIMITS = {
  accounts: 5,
  addresses: 20,
  passwordChanges: 5,
  windowMs: 15 * 60 * 1000,
}

/** What counting a sign-in attempt found. */
export interface SignInTurn {
  /** 0 when the password may be checked now, else the seconds to wait. */
  wait: number
  /** Gives the attempt back (a right password: only failures use up the limits). */
  giveBack(): Promise<void>
}

/**
 * Counts a sign-in attempt under both of its limits before the password is checked. An attempt
 * one limit refuses is given back to the other, so attempts refused unchecked use up nothing.
 */
export async function takeSignIn(
  limits: SignInLimits,
  email: string,
  address: string,
): Promise<SignInTurn> {
  // The email as a hash: a key of fixed length that keeps emails out of Redis.
  const account = `account:${sha256(email.toLowerCase()).slice(0, 32)}:${address}`
  const byAddress = `address:${address}`
  const [accountWait, addressWait] = await Promise.all([
    limits.accounts.take(account),
    limits.addresses.take(byAddress),
  ])
  const giveBack = async (which: { account: boolean; address: boolean }) => {
    await Promise.all([
      which.account ? limits.accounts.giveBack(account) : null,
      which.address ? limits.addresses.giveBack(byAddress) : null,
    ])
  }
  const wait = Math.max(accountWait, addressWait)
  if (wait > 0) await giveBack({ account: accountWait === 0, address: addressWait === 0 })
  return { wait, giveBack: () => giveBack({ account: true, address: true }) }
}
