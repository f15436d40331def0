/**
 * The UTM templates screen (`/dashboard/utm-templates`): the list, create, edit and delete pages
 * every named resource shares, calling the service the API calls. It belongs to the Links
 * section; the link form's UTM section links to it.
 */
import type { FastifyInstance } from 'fastify'
import type { UtmTemplateRow } from '../db/types.js'
import {
  UTM_PARAMETERS,
  UtmTemplateCreateBody,
  UtmTemplateListQuery,
  UtmTemplateUpdateBody,
  type UtmTemplateInput,
} from '../utm/schema.js'
import type { DashboardContext } from './context.js'
import { registerResourceScreens } from './resource-form-routes.js'
import type { ResourceView } from './resource-pages.js'

const view: ResourceView<UtmTemplateRow> = {
  section: 'links',
  title: 'UTM templates',
  object: 'UTM template',
  base: '/dashboard/utm-templates',
  intro:
    'Named sets of UTM parameters: choose one in a link’s form to write them into its destination URL.',
  columns: [
    { label: 'Name', cell: (t) => <strong>{t.name}</strong> },
    ...UTM_PARAMETERS.map((p) => ({
      label: p,
      cell: (t: UtmTemplateRow) => (t[p] === null ? '' : <code>{t[p]}</code>),
    })),
  ],
  fields: [
    { name: 'name', label: 'Name', hint: 'Up to 255 characters, unique among your templates.' },
    ...UTM_PARAMETERS.map((p) => ({
      name: p,
      label: `${p} (optional)`,
      hint: 'Up to 255 characters. Empty: the template leaves it out.',
    })),
  ],
  nameOf: (t) => t.name,
  valuesOf: (t) => ({
    name: t.name,
    ...Object.fromEntries(UTM_PARAMETERS.map((p) => [p, t[p] ?? ''])),
  }),
  deleteWarning: 'Links keep the parameters already written into their URLs.',
}

export function utmTemplateScreens(app: FastifyInstance, ctx: DashboardContext): void {
  const templates = ctx.services.utmTemplates
  registerResourceScreens<UtmTemplateRow, UtmTemplateListQuery, UtmTemplateInput, UtmTemplateInput>(
    app,
    ctx,
    {
      view,
      listQuery: UtmTemplateListQuery,
      createBody: UtmTemplateCreateBody,
      updateBody: UtmTemplateUpdateBody,
      blank: { name: '', ...Object.fromEntries(UTM_PARAMETERS.map((p) => [p, ''])) },
      list: (who, query, page) =>
        templates.list(who.user.id, { search: query.search, sortBy: query.sort_by ?? 'id' }, page),
      get: (who, id) => templates.get(who.user.id, id),
      create: (who, body, errors) => templates.create(who.user.id, body, errors),
      update: (who, id, body, errors) => templates.update(who.user.id, id, body, errors),
      delete: (who, id) => templates.delete(who.user.id, id),
    },
  )
}
