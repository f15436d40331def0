/**
 * "Duplicate": a copy of the link with every setting and a new random alias
 * (`LinkService.duplicate`), then its edit page, where the alias can be changed.
 */
import type { FastifyInstance } from 'fastify'
import { CsrfField } from './components.js'
import { idParam, seeOther, type LinkRouteOptions } from './link-route-helpers.js'

export function DuplicateLink(props: { id: number; csrf: string; label?: string }) {
  return (
    <form method="post" action={`/dashboard/links/${props.id}/duplicate`} class="inline-form">
      <CsrfField token={props.csrf} />
      <button type="submit" class="link-button" aria-label={props.label}>
        Duplicate
      </button>
    </form>
  )
}

export function duplicateRoute(app: FastifyInstance, options: LinkRouteOptions): void {
  app.post('/links/:id/duplicate', { schema: { hide: true } }, async (request, reply) => {
    const copy = await options.services.links.duplicate(
      options.user(request).id,
      idParam(request),
      {},
    )
    return seeOther(reply, `/dashboard/links/${copy.id}?duplicated`)
  })
}
