/**
 * Redis connections. Commands fail fast while Redis is away (no offline queue, one retry), so
 * callers can fall back at once; the client reconnects by itself, forever, with a capped delay.
 */
import { Redis } from 'ioredis'

export function connectRedis(
  url: string,
  onError: (error: Error) => void,
  subscriber = false,
): Redis {
  const client = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: subscriber,
    maxRetriesPerRequest: subscriber ? null : 1,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  })
  let reported = false
  client.on('error', (error: Error) => {
    // One line per outage, not one per retry.
    if (!reported) onError(error)
    reported = true
  })
  client.on('ready', () => {
    reported = false
  })
  return client
}
