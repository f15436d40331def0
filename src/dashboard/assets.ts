/**
 * Files the dashboard's pages load from the service itself (never from another host): htmx,
 * read once from its npm package and served under a versioned path, cached for a year, and the
 * dashboard's own small script (dashboard-script.ts).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { FastifyInstance } from 'fastify'
import { DASHBOARD_SCRIPT, DASHBOARD_SCRIPT_PATH } from './dashboard-script.js'

const require = createRequire(import.meta.url)
const HTMX_VERSION = (require('htmx.org/package.json') as { version: string }).version

export const HTMX_PATH = `/assets/htmx-${HTMX_VERSION}.min.js`

let htmx: Buffer | null = null

export function assetRoutes(app: FastifyInstance): void {
  app.get(HTMX_PATH, { schema: { hide: true } }, async (_request, reply) => {
    htmx ??= readFileSync(require.resolve('htmx.org/dist/htmx.min.js'))
    return reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(htmx)
  })
  app.get(DASHBOARD_SCRIPT_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(DASHBOARD_SCRIPT),
  )
}
