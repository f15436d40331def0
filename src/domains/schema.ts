import {
  FormattedString,
  ListQuery,
  Nullable,
  Timestamp,
  Type,
  type Static,
} from '../shared/schema.js'

export const DomainRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String({ examples: ['example.com'] }),
  url: Type.String({ examples: ['https://example.com'] }),
  index_page: Nullable(Type.String()),
  not_found_page: Nullable(Type.String()),
  global: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type DomainRecord = Static<typeof DomainRecord>

const page = (description: string) =>
  Type.Optional(Nullable(FormattedString('http-url', { maxLength: 2048, description })))

const fields = {
  name: FormattedString('domain-name', {
    maxLength: 255,
    description:
      "A host name of two or more labels, optionally with a scheme: `example.com`, `http://go.example.com` (the scheme defaults to https). No port, address or trailing dot; a Unicode name is stored in its IDNA (punycode) form. Not the service's own domain, nor a global one.",
  }),
  index_page: page('Where a visit to the bare domain goes.'),
  not_found_page: page('Where an unknown alias goes (302) instead of the 404 page.'),
}

export const DomainCreateBody = Type.Object(fields, { additionalProperties: false })
export const DomainUpdateBody = Type.Object(
  { ...fields, name: Type.Optional(fields.name) },
  { additionalProperties: false },
)
export type DomainCreateInput = Partial<Static<typeof DomainCreateBody>>
export type DomainUpdateInput = Static<typeof DomainUpdateBody>

export const DomainListQuery = Type.Object(ListQuery(['id', 'name'] as const, ['name'] as const))
export type DomainListQuery = Static<typeof DomainListQuery>
