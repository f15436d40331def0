/**
 * The API rate limit's store (for @fastify/rate-limit) over the service's limit counters, so
 * the per-key limit is counted where every other limit is: in this process, in the cluster
 * primary for the workers of a machine, or in Redis across machines.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import { sha256 } from '../../shared/secrets.js'
import type { Counters } from '../../limits/window-counters.js'

/** The API limit counts requests a minute. */
export const API_LIMIT_WINDOW_MS = 60_000

/** The counter of a rate-limit key (the API's counters apart from the other limits'). */
function counterOf(limitKey: string): string {
  return `api:${limitKey}`
}

/** The rate limit's key of a request with a key (keys are not kept in the clear). */
export function limitKeyOf(token: string): string {
  return `key:${sha256(token).slice(0, 32)}`
}

export function countersStore(counters: Counters): FastifyRateLimitStoreCtor {
  return class CountersStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      Promise.resolve(counters.incr(counterOf(key), timeWindow)).then(
        (count) => callback(null, count),
        (error: Error) => callback(error),
      )
    }

    child(): FastifyRateLimitStore {
      return this
    }
  }
}
