/**
 * `GET /tls/allowed?domain=<host>`: the question a TLS proxy (Caddy's on-demand TLS `ask`)
 * puts before it gets a certificate for a name. 200 when slink serves that host, 404 when it
 * does not. Only callers in TLS_ASK_FROM get an answer: every address the request passed
 * through (the socket's, and each `X-Forwarded-For` hop) must be in it, so a visitor whose
 * request the proxy relays is refused. Everyone else gets the site's ordinary 404, which says
 * nothing about the route or the domains.
 */
import proxyAddr from '@fastify/proxy-addr'
import type { FastifyInstance } from 'fastify'

export interface ServedHosts {
  serves(host: string): Promise<boolean>
}

export function tlsRoutes(app: FastifyInstance, domains: ServedHosts, askFrom: string[]): void {
  const trusted = proxyAddr.compile(askFrom)
  app.get<{ Querystring: Record<string, unknown> }>(
    '/tls/allowed',
    {
      schema: { hide: true },
      // Before the query is read, so that others learn nothing from its errors either.
      onRequest: async (request, reply) => {
        const chain = proxyAddr.all(request.raw)
        if (!chain.every((address, hop) => trusted(address, hop))) return reply.callNotFound()
      },
    },
    async (request, reply) => {
      const { domain } = request.query
      if (typeof domain !== 'string' || domain === '') {
        const message =
          domain === undefined || domain === ''
            ? 'The domain field is required.'
            : 'The domain field must be a string.'
        return reply.code(422).send({ message: { domain: [message] }, status: 422 })
      }
      const allowed = await domains.serves(domain)
      return reply
        .code(allowed ? 200 : 404)
        .header('cache-control', 'no-store')
        .send({ domain, allowed })
    },
  )
}
