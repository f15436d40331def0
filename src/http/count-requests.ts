/**
 * Counts every request the web framework answers by its route pattern (`/api/v1/links/:id`,
 * never the URL itself, so the labels stay few) and status. A request no route matched is
 * counted under `unmatched`.
 */
import type { FastifyInstance } from 'fastify'
import type { Metrics } from '../shared/metrics.js'

export function countRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(
      request.method,
      request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'),
      reply.statusCode,
    )
    done()
  })
}
