/**
 * The Pixels, Spaces and Domains screens of a signed-in person, and the administrators' global
 * domains: each calls the service the API calls (same rules, events, tenancy and cache
 * invalidation) with the API's schemas, through the shared screens of resource-form-routes.ts.
 */
import type { FastifyInstance } from 'fastify'
import { ownDomainOf } from '../shared/domain-name.js'
import { DnsRecord, dnsIntro } from './domain-dns.js'
import type { DomainRow, PixelRow, SpaceRow, TagRow } from '../db/types.js'
import {
  DomainCreateBody,
  DomainListQuery,
  DomainUpdateBody,
  type DomainCreateInput,
  type DomainUpdateInput,
} from '../domains/schema.js'
import {
  PixelCreateBody,
  PixelListQuery,
  PixelUpdateBody,
  type PixelInput,
} from '../pixels/schema.js'
import { canonicalPixelType, PIXEL_TYPES } from '../pixels/types.js'
import {
  SpaceCreateBody,
  SpaceListQuery,
  SpaceUpdateBody,
  type SpaceInput,
} from '../spaces/schema.js'
import { TagCreateBody, TagListQuery, TagUpdateBody, type TagInput } from '../tags/schema.js'
import { ForbiddenError } from '../shared/errors.js'
import type { DashboardContext } from './context.js'
import { registerResourceScreens } from './resource-form-routes.js'
import { taggedLinksHref } from './tag-stats-page.js'
import type { Column, ResourceView } from './resource-pages.js'

const PIXEL_TYPE_NAMES: Record<(typeof PIXEL_TYPES)[number], string> = {
  adroll: 'AdRoll',
  bing: 'Bing (Microsoft Ads)',
  facebook: 'Facebook (Meta)',
  'google-ads': 'Google Ads',
  'google-analytics': 'Google Analytics',
  'google-tag-manager': 'Google Tag Manager',
  linkedin: 'LinkedIn',
  pinterest: 'Pinterest',
  quora: 'Quora',
  twitter: 'X (Twitter)',
}
const PIXEL_TYPE_CHOICES = PIXEL_TYPES.map((t) => [t, PIXEL_TYPE_NAMES[t]] as const)

/** The six space colours of phpShort, by number. */
export const SPACE_COLORS = ['Blue', 'Green', 'Orange', 'Red', 'Purple', 'Grey'] as const
const COLOR_CHOICES = SPACE_COLORS.map((name, i) => [String(i + 1), name] as const)

const created: Column<{ created_at: number }> = {
  label: 'Created',
  cell: (row) => <span class="nowrap">{new Date(row.created_at).toISOString().slice(0, 10)}</span>,
}

const pixelView: ResourceView<PixelRow> = {
  section: 'pixels',
  title: 'Pixels',
  object: 'pixel',
  base: '/dashboard/pixels',
  columns: [
    { label: 'Name', cell: (p) => <strong>{p.name}</strong> },
    {
      label: 'Type',
      cell: (p) => PIXEL_TYPE_NAMES[p.type as keyof typeof PIXEL_TYPE_NAMES] ?? p.type,
    },
    { label: 'Value', cell: (p) => <code>{p.value}</code> },
    created,
  ],
  fields: [
    { name: 'name', label: 'Name', hint: 'Up to 32 characters, unique among your pixels.' },
    { name: 'type', label: 'Type', choices: PIXEL_TYPE_CHOICES },
    {
      name: 'value',
      label: 'Pixel ID',
      hint: 'Letters, digits, dashes and underscores. AdRoll takes ADVID-PIXID.',
    },
  ],
  filters: [{ name: 'type', label: 'Type', choices: PIXEL_TYPE_CHOICES }],
  nameOf: (p) => p.name,
  valuesOf: (p) => ({ name: p.name, type: p.type, value: p.value }),
  deleteWarning: 'Its links keep working without it.',
}

const spaceView: ResourceView<SpaceRow> = {
  section: 'spaces',
  title: 'Spaces',
  object: 'space',
  base: '/dashboard/spaces',
  columns: [
    { label: 'Name', cell: (s) => <strong>{s.name}</strong> },
    {
      label: 'Colour',
      cell: (s) => (
        <span class={`swatch color-${s.color}`}>
          {SPACE_COLORS[s.color - 1] ?? String(s.color)}
        </span>
      ),
    },
    created,
  ],
  fields: [
    { name: 'name', label: 'Name', hint: 'Up to 32 characters, unique among your spaces.' },
    { name: 'color', label: 'Colour', choices: COLOR_CHOICES },
  ],
  nameOf: (s) => s.name,
  valuesOf: (s) => ({ name: s.name, color: String(s.color) }),
  deleteWarning: 'Its links are deleted with it.',
}

const tagView: ResourceView<TagRow> = {
  section: 'tags',
  title: 'Tags',
  object: 'tag',
  base: '/dashboard/tags',
  columns: [
    { label: 'Name', cell: (tag) => <strong>{tag.name}</strong> },
    {
      label: 'Colour',
      cell: (tag) => (
        <span class={`swatch color-${tag.color}`}>
          {SPACE_COLORS[tag.color - 1] ?? String(tag.color)}
        </span>
      ),
    },
    {
      label: 'Links',
      cell: (tag) => <a href={taggedLinksHref(tag.name)}>{String(tag.links)}</a>,
    },
    created,
  ],
  fields: [
    {
      name: 'name',
      label: 'Name',
      hint: "Up to 50 characters, no comma. Another tag's name merges that tag into this one.",
    },
    { name: 'color', label: 'Colour', choices: COLOR_CHOICES },
  ],
  nameOf: (tag) => tag.name,
  valuesOf: (tag) => ({ name: tag.name, color: String(tag.color) }),
  deleteWarning: 'Its links stay, without it.',
  rowLinks: (tag) => [{ label: 'Statistics', href: `/dashboard/tags/${tag.id}/stats` }],
}

function domainView(
  base: string,
  section: 'domains' | 'admin',
  defaultHost: string,
): ResourceView<DomainRow> {
  return {
    section,
    title: section === 'admin' ? 'Global domains' : 'Domains',
    object: section === 'admin' ? 'global domain' : 'domain',
    base,
    columns: [
      { label: 'Name', cell: (d) => <strong>{d.name}</strong> },
      { label: 'URL', cell: (d) => d.url },
      { label: 'Index page', cell: (d) => d.index_page ?? '' },
      { label: 'Not-found page', cell: (d) => d.not_found_page ?? '' },
      ...(section === 'domains'
        ? [{ label: 'Kind', cell: (d: DomainRow) => (d.user_id === null ? 'Global' : 'Yours') }]
        : []),
      { label: 'DNS record', cell: (d) => <DnsRecord domain={d} defaultHost={defaultHost} /> },
    ],
    fields: [
      {
        name: 'name',
        label: 'Domain name',
        hint: 'example.com, or with a scheme and port: http://localhost:8080 (https when none is given).',
      },
      {
        name: 'index_page',
        label: 'Index page (optional)',
        hint: 'Where a visit to the bare domain goes: an http or https URL.',
      },
      {
        name: 'not_found_page',
        label: 'Not-found page (optional)',
        hint: 'Where an unknown short link goes instead of the "not found" page.',
      },
    ],
    nameOf: (d) => d.name,
    valuesOf: (d) => ({
      name: d.url.startsWith('https://') ? d.name : d.url,
      index_page: d.index_page ?? '',
      not_found_page: d.not_found_page ?? '',
    }),
    deleteWarning: 'Its links are deleted with it.',
    ...(section === 'admin'
      ? {
          intro: `Domains everyone can use for their links. The default domain (PUBLIC_URL) is managed by the configuration. ${dnsIntro(defaultHost)}`,
        }
      : {
          intro: `Your own domains, and the global ones every user can use (read-only here). ${dnsIntro(defaultHost)}`,
        }),
  }
}

export function resourceRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const { pixels, spaces, domains, tags } = ctx.services

  registerResourceScreens<PixelRow, PixelListQuery, PixelInput, PixelInput>(app, ctx, {
    view: pixelView,
    listQuery: PixelListQuery,
    createBody: PixelCreateBody,
    updateBody: PixelUpdateBody,
    blank: { name: '', type: 'facebook', value: '' },
    list: (who, query, page) =>
      pixels.list(
        who.user.id,
        {
          search: query.search,
          sortBy: query.sort_by ?? 'id',
          ...(query.type ? { type: canonicalPixelType(query.type) } : {}),
        },
        page,
      ),
    get: (who, id) => pixels.get(who.user.id, id),
    create: (who, body, errors) => pixels.create(who.user.id, body, errors),
    update: (who, id, body, errors) => pixels.update(who.user.id, id, body, errors),
    delete: (who, id) => pixels.delete(who.user.id, id),
  })

  registerResourceScreens<SpaceRow, SpaceListQuery, SpaceInput, SpaceInput>(app, ctx, {
    view: spaceView,
    listQuery: SpaceListQuery,
    createBody: SpaceCreateBody,
    updateBody: SpaceUpdateBody,
    blank: { name: '', color: '1' },
    list: (who, query, page) =>
      spaces.list(who.user.id, { search: query.search, sortBy: query.sort_by ?? 'id' }, page),
    get: (who, id) => spaces.get(who.user.id, id),
    create: (who, body, errors) => spaces.create(who.user.id, body, errors),
    update: (who, id, body, errors) => spaces.update(who.user.id, id, body, errors),
    delete: (who, id) => spaces.delete(who.user.id, id),
  })

  registerResourceScreens<TagRow, TagListQuery, TagInput, TagInput>(app, ctx, {
    view: tagView,
    listQuery: TagListQuery,
    createBody: TagCreateBody,
    updateBody: TagUpdateBody,
    blank: { name: '', color: '1' },
    list: (who, query, page) =>
      tags.list(who.user.id, { search: query.search, sortBy: query.sort_by ?? 'id' }, page),
    get: (who, id) => tags.get(who.user.id, id),
    create: (who, body, errors) => tags.create(who.user.id, body, errors),
    update: (who, id, body, errors) => tags.update(who.user.id, id, body, errors),
    delete: (who, id) => tags.delete(who.user.id, id),
  })

  // The default domain's host: the name a CNAME points to.
  const defaultName = ownDomainOf(ctx.config.publicUrl).name
  registerResourceScreens<DomainRow, DomainListQuery, DomainCreateInput, DomainUpdateInput>(
    app,
    ctx,
    {
      view: {
        ...domainView('/dashboard/domains', 'domains', defaultName),
        readOnly: (d) => d.user_id === null,
      },
      listQuery: DomainListQuery,
      createBody: DomainCreateBody,
      updateBody: DomainUpdateBody,
      blank: { name: '', index_page: '', not_found_page: '' },
      list: (who, query, page) =>
        domains.list(who.user.id, { search: query.search, sortBy: query.sort_by ?? 'id' }, page),
      get: (who, id) => domains.get(who.user.id, id),
      create: (who, body, errors) => domains.create(who.user.id, body, errors),
      update: (who, id, body, errors) => domains.update(who.user.id, id, body, errors),
      delete: (who, id) => domains.delete(who.user.id, id),
    },
  )

  // The default domain is made from PUBLIC_URL at every start: renaming or deleting it here
  // would be undone (or break every short link), so it is read-only on this screen too.
  registerResourceScreens<DomainRow, DomainListQuery, DomainCreateInput, DomainUpdateInput>(
    app,
    ctx,
    {
      view: {
        ...domainView('/dashboard/admin/domains', 'admin', defaultName),
        readOnly: (d) => d.name === defaultName,
      },
      listQuery: DomainListQuery,
      createBody: DomainCreateBody,
      updateBody: DomainUpdateBody,
      blank: { name: '', index_page: '', not_found_page: '' },
      allowed: (who) => who.user.role === 'admin',
      list: (_who, query, page) =>
        domains.listGlobal({ search: query.search, sortBy: query.sort_by ?? 'id' }, page),
      get: (_who, id) => domains.getGlobal(id),
      create: (_who, body, errors) => domains.create(null, body, errors),
      update: async (_who, id, body, errors) => {
        if ((await domains.getGlobal(id)).name === defaultName) throw new ForbiddenError()
        return domains.updateGlobal(id, body, errors)
      },
      delete: async (_who, id) => {
        if ((await domains.getGlobal(id)).name === defaultName) throw new ForbiddenError()
        return domains.deleteGlobal(id)
      },
    },
  )
}
