/**
 * What the dashboard's pages of one link share: who is asking, the link itself (only the
 * user's own: another user's id, a missing one or a malformed one is `null`, shown as the same
 * 404 page), and how a query parameter and a page are read and sent.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { DashboardServices } from './context.js'
import type { RenderedPage } from '../pages/layout.js'
import { NotFoundError } from '../shared/errors.js'
import type { StatsLink } from './link-stats-page.js'
import type { Viewer } from './shell.js'

/** Who is asking: the signed-in user and what the layout shows of them. */
export type SignedInAs = (request: FastifyRequest) => { userId: number; viewer: Viewer }

export type Query = Record<string, unknown>
export type LinkRequest = FastifyRequest<{ Params: { id: string }; Querystring: Query }>

/**
 * An absent or empty parameter is absent; a repeated or structured one (`a=1&a=2`, `a[]=1`)
 * becomes its JSON text, which no rule accepts, so it is refused under its name.
 */
export function parameter(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined
  return typeof value === 'string' ? value : JSON.stringify(value)
}

export function send(reply: FastifyReply, status: number, page: RenderedPage): FastifyReply {
  return reply.code(status).headers(page.headers).send(page.html)
}

/** The user's link with its short URL and creation time, or null. */
export async function ownLink(
  services: DashboardServices,
  userId: number,
  id: string,
): Promise<(StatsLink & { createdAt: number }) | null> {
  if (!/^[0-9]{1,15}$/.test(id)) return null
  try {
    const row = await services.links.get(userId, Number(id))
    const [record] = await services.presenter.present(userId, [row])
    const { alias, title } = row
    return { id: row.id, alias, title, shortUrl: record!.short_url, createdAt: row.created_at }
  } catch (error) {
    if (error instanceof NotFoundError) return null
    throw error
  }
}
