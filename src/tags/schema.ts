import { IntegerEnum, ListQuery, Timestamp, Type, type Static } from '../shared/schema.js'

export const TagRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  color: Type.Integer({ minimum: 1, maximum: 6 }),
  links: Type.Integer({ description: 'How many of your links carry it.' }),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type TagRecord = Static<typeof TagRecord>

const fields = {
  name: Type.String({
    maxLength: 255,
    description:
      'Trimmed, 1–50 characters, no comma, unique among your tags ignoring case. Renaming a ' +
      'tag to the name of another merges that one into it.',
  }),
  color: Type.Optional(IntegerEnum([1, 2, 3, 4, 5, 6] as const, { description: 'Default 1.' })),
}

export const TagCreateBody = Type.Object(fields, { additionalProperties: false })
export const TagUpdateBody = Type.Object(
  { ...fields, name: Type.Optional(fields.name) },
  { additionalProperties: false },
)
export type TagInput = Static<typeof TagUpdateBody>

export const TagListQuery = Type.Object(
  ListQuery(['id', 'name', 'links'] as const, ['name'] as const),
)
export type TagListQuery = Static<typeof TagListQuery>
