/**
 * The links list's actions: disable and enable a link, delete it after its confirmation page,
 * and the bulk actions on the selected rows. Each answers a 303 back to the list page it came
 * from, which says what was done.
 */
import type { FastifyInstance } from 'fastify'
import type { LinkRow } from '../db/types.js'
import { ValidationError } from '../shared/errors.js'
import { bulkConfirmPage, deleteConfirmPage } from './link-action-pages.js'
import {
  bodyOf,
  idParam,
  linkRecord,
  seeOther,
  send,
  type LinkRouteOptions,
  type Raw,
} from './link-route-helpers.js'
import { items } from './link-form.js'
import { inPeoplesWords, labelled } from './messages.js'
import type { Done } from './link-row-actions.js'

/** At most this many links in one bulk action (the largest page of the list). */
const MAX_BULK = 100

const BULK_ACTIONS = ['delete', 'disable', 'enable', 'move', 'add_tag', 'remove_tag'] as const
type BulkAction = (typeof BULK_ACTIONS)[number]

const DONE: Record<BulkAction, Done> = {
  delete: 'deleted',
  disable: 'disabled',
  enable: 'enabled',
  move: 'moved',
  add_tag: 'tagged',
  remove_tag: 'untagged',
}

/** The bulk form's own field names in its messages (the service names the tag `tag`). */
const bulkNaming = labelled({ tag: 'Tag' })

/** Where to go back to after a row or bulk action: the list with its filters, nothing else. */
function backTo(raw: Raw): string {
  const back = raw._back
  return typeof back === 'string' && /^\/dashboard\/links(?:\?[^#\s]*)?$/.test(back)
    ? back
    : '/dashboard/links'
}

/** The list page to go back to, told what was done (`done=disabled-3`, see `doneNotice`). */
function backWith(raw: Raw, done: Done, count: number): string {
  const url = new URL(backTo(raw), 'http://dashboard.invalid')
  url.searchParams.set('done', `${done}-${count}`)
  return `${url.pathname}${url.search}`
}

/** The ids sent, as sent (`ids[]`, or one `ids`). */
function sentIds(raw: Raw): unknown[] {
  const given = raw.ids
  return typeof given === 'string' ? [given] : items(given)
}

function idsOf(sent: unknown[]): number[] {
  return sent
    .filter((v): v is string => typeof v === 'string' && /^[1-9]\d{0,15}$/.test(v))
    .map(Number)
    .filter(Number.isSafeInteger)
}

export function linkActionRoutes(app: FastifyInstance, options: LinkRouteOptions): void {
  const { services } = options
  const links = services.links

  for (const [path, disabled] of [
    ['disable', 1],
    ['enable', 0],
  ] as const) {
    app.post(`/links/:id/${path}`, { schema: { hide: true } }, async (request, reply) => {
      const user = options.user(request)
      await links.update(user.id, idParam(request), { disabled })
      return seeOther(reply, backWith(bodyOf(request), `${path}d`, 1))
    })
  }

  app.get('/links/:id/delete', { schema: { hide: true } }, async (request, reply) => {
    const link = await linkRecord(services, options.user(request).id, idParam(request))
    return send(reply, 200, deleteConfirmPage(options.viewer(request), link))
  })

  app.post('/links/:id/delete', { schema: { hide: true } }, async (request, reply) => {
    await links.delete(options.user(request).id, idParam(request))
    return seeOther(reply, backWith(bodyOf(request), 'deleted', 1))
  })

  /**
   * `ids[]` and `action` (+ `space_id` to move, `tag` to add or remove a tag). Ids that are not the user's links are ignored,
   * as a link deleted meanwhile would be; the rest change in one transaction, each raising its
   * own event. A delete asks first: it answers a confirmation page unless `confirm=1` is sent.
   */
  app.post('/links/bulk', { schema: { hide: true } }, async (request, reply) => {
    const user = options.user(request)
    const raw = bodyOf(request)
    const sent = sentIds(raw)
    const ids = idsOf(sent)
    const back = backTo(raw)
    const action = BULK_ACTIONS.find((a) => a === raw.action)
    const viewer = options.viewer(request)
    const problem = (message: string) =>
      send(reply, 422, bulkConfirmPage(viewer, { back, problem: message, links: [] }))
    if (action === undefined) return problem('Choose what to do with the selected links.')
    if (sent.length > MAX_BULK) return problem(`Select at most ${MAX_BULK} links.`)
    // Nothing ticked: back to the very list, which says what to do first.
    if (sent.length === 0) return seeOther(reply, backWith(raw, 'none', 0))
    if (ids.length === 0) return problem('Select at least one link.')
    if (action === 'delete' && raw.confirm !== '1') {
      const own = await links.findOwn(user.id, ids)
      const records = await services.presenter.present(user.id, own)
      if (records.length === 0) return problem('None of the selected links exist any more.')
      return send(reply, 200, bulkConfirmPage(viewer, { back, links: records }))
    }
    let changed: LinkRow[]
    try {
      changed = await bulk(user.id, action, ids, raw)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      return problem(Object.values(inPeoplesWords(error.fields, bulkNaming)).flat().join(' '))
    }
    return seeOther(reply, backWith(raw, DONE[action], changed.length))
  })

  async function bulk(
    userId: number,
    action: BulkAction,
    ids: number[],
    raw: Raw,
  ): Promise<LinkRow[]> {
    if (action === 'delete') return links.deleteMany(userId, ids)
    if (action === 'add_tag' || action === 'remove_tag') {
      const name = typeof raw.tag === 'string' ? raw.tag : ''
      return links.tagMany(userId, ids, action === 'add_tag' ? { add: name } : { remove: name })
    }
    if (action === 'move') {
      const space = raw.space_id
      // An empty space takes the links out of their spaces; a space that is not the user's is
      // refused by the service with the API's message.
      const text = typeof space === 'string' ? space : ''
      if (text !== '' && !/^[1-9]\d{0,15}$/.test(text)) {
        throw new ValidationError({ space_id: ['The space id field must be an integer.'] })
      }
      return links.updateMany(userId, ids, { space_id: text === '' ? null : Number(text) })
    }
    return links.updateMany(userId, ids, { disabled: action === 'disable' ? 1 : 0 })
  }
}
