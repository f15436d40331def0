/**
 * The API rate limit's store (for @fastify/rate-limit) over the service's limit counters, so
 * the per-key limit is counted where every other limit is: in this process, in the cluster
 * primary for the workers of a machine, or in Redis across machines.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Counters } from './window-counters.js'

export function countersStore(counters: Counters): FastifyRateLimitStoreCtor {
  return class CountersStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      Promise.resolve(counters.incr(`api:${key}`, timeWindow)).then(
        (count) => callback(null, count),
        (error: Error) => callback(error),
      )
    }

    child(): FastifyRateLimitStore {
      return this
    }
  }
}
