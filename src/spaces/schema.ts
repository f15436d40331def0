import { IntegerEnum, ListQuery, Timestamp, Type, type Static } from '../shared/schema.js'

export const SpaceRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  color: Type.Integer({ minimum: 1, maximum: 6 }),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type SpaceRecord = Static<typeof SpaceRecord>

const fields = {
  name: Type.String({ maxLength: 32, description: 'Unique among your spaces.' }),
  color: Type.Optional(IntegerEnum([1, 2, 3, 4, 5, 6] as const, { description: 'Default 1.' })),
}

export const SpaceCreateBody = Type.Object(fields, { additionalProperties: false })
export const SpaceUpdateBody = Type.Object(
  { ...fields, name: Type.Optional(fields.name) },
  { additionalProperties: false },
)
export type SpaceInput = Static<typeof SpaceUpdateBody>

export const SpaceListQuery = Type.Object(ListQuery(['id', 'name'] as const, ['name'] as const))
export type SpaceListQuery = Static<typeof SpaceListQuery>
