import { ListQuery, Nullable, Timestamp, Type, type Static } from '../shared/schema.js'

/** The five parameters a template holds, in the order the record, the form and the URL use. */
export const UTM_PARAMETERS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
] as const
export type UtmParameter = (typeof UTM_PARAMETERS)[number]
export type UtmValues = Record<UtmParameter, string | null>

/** The longest value of one parameter. */
export const UTM_VALUE_MAX = 255

export const UtmTemplateRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  utm_source: Nullable(Type.String()),
  utm_medium: Nullable(Type.String()),
  utm_campaign: Nullable(Type.String()),
  utm_term: Nullable(Type.String()),
  utm_content: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type UtmTemplateRecord = Static<typeof UtmTemplateRecord>

const value = (what: string) =>
  Type.Optional(
    Nullable(Type.String({ maxLength: UTM_VALUE_MAX, description: `${what} Empty: not set.` })),
  )

const fields = {
  name: Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'Unique among your UTM templates.',
  }),
  utm_source: value('Where the traffic comes from (`newsletter`).'),
  utm_medium: value('The channel (`email`).'),
  utm_campaign: value('The campaign (`spring_sale`).'),
  utm_term: value('The paid search term.'),
  utm_content: value('What was clicked, to tell apart links of one campaign.'),
}

export const UtmTemplateCreateBody = Type.Object(fields, { additionalProperties: false })
export const UtmTemplateUpdateBody = Type.Object(
  { ...fields, name: Type.Optional(fields.name) },
  { additionalProperties: false },
)
export type UtmTemplateInput = Static<typeof UtmTemplateUpdateBody>

export const UtmTemplateListQuery = Type.Object(
  ListQuery(['id', 'name'] as const, ['name'] as const),
)
export type UtmTemplateListQuery = Static<typeof UtmTemplateListQuery>
